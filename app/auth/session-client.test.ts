import { afterEach, describe, expect, it } from "vitest";
import { hasEditorHint, loadSession, resetSession } from "./session-client";

afterEach(() => resetSession());

describe("the browser's session fetch", () => {
  it("asks once, without retry, and is ready after the first answer even when it failed", async () => {
    let calls = 0;
    const failing = (async () => {
      calls++;
      throw new TypeError("network down");
    }) as unknown as typeof fetch;
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void errors.push(args);
    try {
      expect(await loadSession(failing)).toEqual({ ready: true, user: null });
      expect(await loadSession(failing)).toEqual({ ready: true, user: null });
    } finally {
      console.error = original;
    }
    expect(calls).toBe(1);
    expect(errors).toHaveLength(1);
  });

  it("takes the user from a 200 answer and stays signed out on a 500", async () => {
    const user = { id: "u1", email: "a@b.example", name: "A", superuser: false, language: "de" };
    const ok = (async () => new Response(JSON.stringify({ user }), { status: 200 })) as unknown as typeof fetch;
    expect((await loadSession(ok)).user).toEqual(user);
    resetSession();
    const broken = (async () => new Response("{}", { status: 500 })) as unknown as typeof fetch;
    expect(await loadSession(broken)).toEqual({ ready: true, user: null });
  });

  it("reads the hint cookie among others, not a cookie that merely contains its name", () => {
    expect(hasEditorHint("pn_consent=x; pn_editor=1")).toBe(true);
    expect(hasEditorHint("xpn_editor=1; other=2")).toBe(false);
    expect(hasEditorHint("")).toBe(false);
  });
});
