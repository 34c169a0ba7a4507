import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { AppLoadContext } from "react-router";
import { afterAll, describe, expect, it } from "vitest";
import { ContentError } from "~/content/errors";
import type { User } from "~/auth/users.server";
import { mutate } from "./admin.server";
import { adminTexts } from "./texts";
import { realBusyError as busyError } from "../../tests/support/sqlite-busy";

/**
 * What an admin action answers when the store refuses: the policy's 403 and a store busy past its
 * wait are told in the editor's language (never a 500, never the store's English), other store
 * errors keep their status and message.
 */
describe("mutate", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "praxisnetz-admin-mutate-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const realBusyError = () => busyError(dir);

  const logged: unknown[] = [];
  const user = { id: "u1", email: "editor@example.org", superuser: false, language: "de" } as User;
  const args = { request: new Request("http://localhost/manage/pages", { method: "POST" }), context: { services: { logger: { error: (o: unknown) => logged.push(o) } } } as unknown as AppLoadContext, user };
  const answer = async (error: unknown, language: "de" | "en" = "de") => {
    const result = await mutate({ ...args, user: { ...user, language } }, null, () => Promise.reject(error), () => {
      throw new Error("not reached");
    });
    return { status: result.init?.status, data: result.data };
  };

  it("tells a busy store as 503 in the editor's language, not as a failed save (500)", async () => {
    const busy = realBusyError();
    expect((busy as { code?: string }).code).toBe("SQLITE_BUSY");
    expect(await answer(busy)).toEqual({ status: 503, data: { ok: false, message: adminTexts.de.busy } });
    expect(await answer(busy, "en")).toEqual({ status: 503, data: { ok: false, message: adminTexts.en.busy } });
    expect(logged).toEqual([]);
  });

  it("tells the policy's refusal in the editor's language", async () => {
    const refusal = new ContentError(403, "Only a superuser may delete content.", undefined, "FORBIDDEN");
    expect(await answer(refusal)).toEqual({ status: 403, data: { ok: false, message: adminTexts.de.forbidden } });
  });

  it("keeps other store errors' status and message, and answers anything else as a failed save", async () => {
    expect((await answer(new ContentError(409, "taken"))).status).toBe(409);
    expect(await answer(new Error("boom"))).toEqual({ status: 500, data: { ok: false, message: adminTexts.de.saveFailed(500) } });
    expect(logged).toHaveLength(1);
  });
});
