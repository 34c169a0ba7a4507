import { describe, expect, it } from "vitest";
import { createValue } from "./value";

describe("createValue", () => {
  it("tells its listeners of a change, not of the same value, and stops after unsubscribing", () => {
    const v = createValue<"saved" | "unsaved">("saved");
    const heard: string[] = [];
    const stop = v.subscribe(() => heard.push(v.get()));
    v.set("unsaved");
    v.set("unsaved");
    v.set((s) => (s === "unsaved" ? "saved" : s));
    stop();
    v.set("unsaved");
    expect(heard).toEqual(["unsaved", "saved"]);
    expect(v.get()).toBe("unsaved");
  });

  it("keeps an object set to itself without a notice", () => {
    const state = { ready: false };
    const v = createValue(state);
    let notices = 0;
    v.subscribe(() => notices++);
    v.set((s) => s);
    v.set({ ready: false });
    expect(notices).toBe(1);
  });
});
