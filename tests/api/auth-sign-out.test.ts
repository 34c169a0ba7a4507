import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SESSION_KEY_SETTING, SessionSealer } from "~/auth/session.server";
import { clearsSession, DEMO_ADMIN, openStore, postForm, readSetting, sessionPair, signIn, whoAmI, type Server } from "../support/auth";
import { withTwoPgNodes } from "../support/pg-role";
import { startServer, type RunningServer } from "../support/server";

/**
 * Signing out ends the session on the server (issue 20, finding 3): the cookie a browser sent when
 * it signed out, and every renewal of it, is refused afterwards by every app node, though it is
 * sealed correctly and not yet expired. Both ways out (the session API and the account page) do
 * it and are audited.
 */

const DAY = 24 * 3600;
/** The server's defaults (app/env.server.ts): 12 h idle, 7 days at most. */
const TIMES = { idleSeconds: 12 * 3600, maxSeconds: 7 * DAY };

/** What a stolen copy of the cookie still opens: the session API's user, a superuser page, a JSON API. */
async function opens(server: Server, cookie: string) {
  const session = await fetch(`${server.url}/api/_auth/session`, { headers: { cookie } });
  const body = (await session.json()) as { user?: { email: string } };
  const users = await fetch(`${server.url}/manage/users`, { redirect: "manual", headers: { cookie } });
  await users.arrayBuffer();
  const api = await fetch(`${server.url}/api/squidex/api/apps/praxisnetz/assets`, { headers: { cookie } });
  await api.arrayBuffer();
  return { user: body.user?.email ?? null, cleared: clearsSession(session), users: users.status, usersLocation: users.headers.get("location"), api: api.status };
}

const signOutViaApi = (server: Server, cookie: string) => fetch(`${server.url}/api/_auth/session`, { method: "DELETE", headers: { origin: server.url, cookie } });

describe("signing out (one node, SQLite)", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server?.stop());

  const auditedSignOuts = () => {
    const db = openStore(server.dataDir);
    try {
      return (db.prepare("select count(*) as n from audit_log where action = 'sign-out' and user_email = ?").get(DEMO_ADMIN.email) as { n: number }).n;
    } finally {
      db.close();
    }
  };

  it("through DELETE /api/_auth/session: the same cookie is no session afterwards, and the sign-out is audited", async () => {
    const cookie = await signIn(server, DEMO_ADMIN.email, DEMO_ADMIN.password);
    const other = await signIn(server, DEMO_ADMIN.email, DEMO_ADMIN.password);
    expect(await opens(server, cookie)).toMatchObject({ user: DEMO_ADMIN.email, users: 200, api: 200 });
    const before = auditedSignOuts();

    const out = await signOutViaApi(server, cookie);
    expect(out.status).toBe(200);
    expect(clearsSession(out)).toBe(true);

    // A browser that kept the cookie (or anyone who copied it) is signed out all the same.
    expect(await opens(server, cookie)).toEqual({ user: null, cleared: true, users: 302, usersLocation: "/login?redirect=%2Fmanage%2Fusers", api: 401 });
    expect(auditedSignOuts()).toBe(before + 1);
    // Another session of the same user goes on.
    expect(await whoAmI(server, other)).toMatchObject({ email: DEMO_ADMIN.email });
    // Signing out again with the dead cookie ends nothing more and is not audited again.
    expect((await signOutViaApi(server, cookie)).status).toBe(200);
    expect(auditedSignOuts()).toBe(before + 1);
  });

  it("through the account page: the same, and a new sign-in afterwards is a session again", async () => {
    const cookie = await signIn(server, DEMO_ADMIN.email, DEMO_ADMIN.password);
    const before = auditedSignOuts();
    const out = await postForm(server, "/manage/account", { intent: "sign-out" }, cookie);
    expect(out.status).toBe(302);
    expect(out.headers.get("location")).toBe("/login");
    expect(clearsSession(out)).toBe(true);
    expect(await opens(server, cookie)).toMatchObject({ user: null, users: 302, api: 401 });
    expect(auditedSignOuts()).toBe(before + 1);
    expect(await whoAmI(server, await signIn(server, DEMO_ADMIN.email, DEMO_ADMIN.password))).toMatchObject({ email: DEMO_ADMIN.email });
  });

  it("ends every renewal of the session: signing out with the old cookie kills the renewed one, and the other way round", async () => {
    const sealer = (atMs: number) => new SessionSealer(readSetting(server.dataDir, SESSION_KEY_SETTING)!, TIMES, () => atMs);
    const db = openStore(server.dataDir);
    const { id, gen } = db.prepare("select id, session_generation as gen from users where email = ?").get(DEMO_ADMIN.email) as { id: string; gen: number };
    db.close();
    /** A session signed in 6 minutes ago (due for renewal) and the renewed cookie the server hands out for it. */
    const renewedPair = async () => {
      const at = Date.now() - 6 * 60_000;
      const first = `pn_session=${(await sealer(at).seal({ uid: id, gen, auth: Math.floor(at / 1000) })).value}`;
      const res = await fetch(`${server.url}/api/_auth/session`, { headers: { cookie: first } });
      expect(((await res.json()) as { user?: unknown }).user).toBeDefined();
      const renewed = sessionPair(res);
      expect(renewed).toMatch(/^pn_session=[\w.-]{20,}$/);
      expect(renewed).not.toBe(first);
      expect(await whoAmI(server, renewed!)).toMatchObject({ email: DEMO_ADMIN.email });
      return { first, renewed: renewed! };
    };

    const a = await renewedPair();
    expect((await signOutViaApi(server, a.first)).status).toBe(200);
    expect(await opens(server, a.renewed)).toMatchObject({ user: null, users: 302, api: 401 });
    expect(await whoAmI(server, a.first)).toBeNull();

    const b = await renewedPair();
    expect((await postForm(server, "/manage/account", { intent: "sign-out" }, b.renewed)).status).toBe(302);
    expect(await opens(server, b.first)).toMatchObject({ user: null, users: 302, api: 401 });
  });

  it("records an ended session until its last cookie could have expired (7 days after signing in)", async () => {
    const cookie = await signIn(server, DEMO_ADMIN.email, DEMO_ADMIN.password);
    const signedInAt = Math.floor(Date.now() / 1000);
    expect((await signOutViaApi(server, cookie)).status).toBe(200);
    const claims = await new SessionSealer(readSetting(server.dataDir, SESSION_KEY_SETTING)!, TIMES).open(cookie.slice("pn_session=".length));
    const db = openStore(server.dataDir);
    try {
      const row = db.prepare("select user_id, expires from ended_sessions where sid = ?").get(claims!.sid) as { user_id: string; expires: string };
      expect(row).toBeDefined();
      const expires = Date.parse(row.expires) / 1000;
      expect(expires).toBeGreaterThanOrEqual(signedInAt + TIMES.maxSeconds - 5);
      expect(expires).toBeLessThanOrEqual(signedInAt + TIMES.maxSeconds + 5);
    } finally {
      db.close();
    }
  });
});

describe("signing out (two app nodes on one PostgreSQL database)", () => {
  it("on node A ends the session on node B, through both ways out", async () => {
    await withTwoPgNodes("signout", async (a, b) => {
      for (const way of ["api", "account page"] as const) {
        const cookie = await signIn(a, DEMO_ADMIN.email, DEMO_ADMIN.password);
        expect(await opens(b, cookie), way).toMatchObject({ user: DEMO_ADMIN.email, users: 200, api: 200 });
        const out = way === "api" ? await signOutViaApi(a, cookie) : await postForm(a, "/manage/account", { intent: "sign-out" }, cookie);
        expect(out.status, way).toBeLessThan(400);
        expect(clearsSession(out), way).toBe(true);
        for (const node of [b, a]) expect(await opens(node, cookie), way).toMatchObject({ user: null, cleared: true, users: 302, api: 401 });
      }
    });
  }, 90_000);
});
