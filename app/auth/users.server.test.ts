import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate, openDatabase, type DB } from "~/content/db";
import { UserStore } from "./users.server";

/** UserStore's ended sessions on a real SQLite file (the HTTP tests cover PostgreSQL through two app nodes). */
let dir: string;
let db: DB;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "praxisnetz-users-"));
  db = (await openDatabase({ sqlitePath: path.join(dir, "store.sqlite") })).db;
  await migrate(db);
});
afterAll(async () => {
  await db?.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("ended sessions", () => {
  it("are read with the user in one lookup, only for their own id, and purged once expired", async () => {
    const users = new UserStore(db);
    const user = await users.create({ email: "ended@example.com", password: "a-password-123" });
    expect(await users.forSession(user.id, "sid-a")).toEqual({ user, ended: false });
    expect(await users.forSession("no-such-user", "sid-a")).toBeUndefined();

    const expires = new Date("2026-12-04T10:00:00.000Z");
    await users.endSession("sid-a", user.id, expires);
    await users.endSession("sid-a", user.id, expires); // twice (two sign-outs racing): no error
    expect(await users.forSession(user.id, "sid-a")).toMatchObject({ ended: true });
    expect(await users.forSession(user.id, "sid-b")).toMatchObject({ ended: false });

    expect(await users.purgeEndedSessions(new Date(expires.getTime() - 1000))).toBe(0);
    expect(await users.forSession(user.id, "sid-a")).toMatchObject({ ended: true });
    expect(await users.purgeEndedSessions(new Date(expires.getTime() + 1000))).toBe(1);
    expect(await users.forSession(user.id, "sid-a")).toMatchObject({ ended: false });
  });
});
