import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, DEMO_ADMIN, mailedToken, openStore, postForm, postSession, sessionPair, setPasswordWithToken, signIn, whoAmI, type Server } from "../support/auth";
import { startServer, type RunningServer } from "../support/server";

/**
 * Issue 20, findings 6 and 7, over real HTTP. Strangers' wrong passwords lock an account for
 * browsers that never signed in to it, but not for its owner's browser (the device cookie), and a
 * new password ends the lock. The account page's current-password check is throttled with the same
 * counts. Every request comes from the loopback address and carries no X-Forwarded-For: the
 * "strangers" are told apart by their cookies alone.
 */

/** The `pn_device=…` pair of a response's Set-Cookie, or undefined. */
function devicePair(res: { headers: Headers }): string | undefined {
  return res.headers.getSetCookie().find((c) => c.startsWith("pn_device="))?.split(";")[0];
}

/** Signs in through the JSON API with the given cookies; the session and the new device cookie. */
async function signInWithDevice(server: Server, email: string, password: string, cookie?: string) {
  const res = await postSession(server, { email, password }, cookie ? { cookie } : {});
  const text = await res.text();
  expect(res.status, `sign-in of ${email}: ${text}`).toBe(200);
  const device = devicePair(res);
  expect(device).toMatch(/^pn_device=[\w-]+\.[\w-]+$/);
  return { session: sessionPair(res)!, device: device! };
}

const statusOf = async (res: Promise<Response>) => {
  const r = await res;
  await r.arrayBuffer();
  return r.status;
};

/** `count` wrong passwords for `email` at once, from browsers without cookies: all refused as wrong (401). */
async function strangersGuess(server: Server, email: string, count = 10) {
  const statuses = await Promise.all(Array.from({ length: count }, (_, i) => statusOf(postSession(server, { email, password: `stranger-guess-${i}` }))));
  expect(statuses).toEqual(Array(count).fill(401));
}

function userId(server: RunningServer, email: string): string {
  const db = openStore(server.dataDir);
  try {
    return (db.prepare("select id from users where email = ?").get(email) as { id: string }).id;
  } finally {
    db.close();
  }
}

describe("strangers cannot lock the owner out (device cookies)", () => {
  let server: RunningServer;
  let admin: string;
  const owner = { email: "owner@example.com", password: "owner-password-1" };
  beforeAll(async () => {
    server = await startServer();
    admin = await signIn(server, DEMO_ADMIN.email, DEMO_ADMIN.password);
    await createUser(server, admin, owner);
  });
  afterAll(() => server?.stop());

  it("10 wrong passwords lock out browsers without the device cookie; the owner's browser signs in; a password reset ends the lock", async () => {
    const { device } = await signInWithDevice(server, owner.email, owner.password);
    const adminDevice = (await signInWithDevice(server, DEMO_ADMIN.email, DEMO_ADMIN.password)).device;

    await strangersGuess(server, owner.email);
    // A browser without the device cookie: refused even with the right password, through the API and the login page.
    const stranger = await postSession(server, owner);
    expect(stranger.status).toBe(429);
    expect(Number(stranger.headers.get("retry-after"))).toBeGreaterThan(60);
    expect(sessionPair(stranger)).toBeUndefined();
    expect(devicePair(stranger)).toBeUndefined();
    expect(await statusOf(postForm(server, "/login", owner))).toBe(429);
    // Nor does another account's device cookie, or a forged one, count for this account.
    const [body, mac] = device.slice("pn_device=".length).split(".");
    for (const cookie of [adminDevice, `pn_device=${body}.${mac!.slice(0, -2)}AA`]) expect(await statusOf(postSession(server, owner, { cookie })), cookie).toBe(429);

    // The owner's browser signs in (API and login page), and is signed in.
    const back = await signInWithDevice(server, owner.email, owner.password, device);
    expect(await whoAmI(server, back.session)).toMatchObject({ email: owner.email });
    const page = await postForm(server, "/login", owner, device);
    expect(page.status).toBe(303);
    expect(sessionPair(page)).toMatch(/^pn_session=[\w.-]{20,}$/);
    // The owner signing in does not lift the strangers' lock.
    expect(await statusOf(postSession(server, owner))).toBe(429);

    // A device has a small budget of its own: five wrong passwords lock that device, not the first one.
    const second = back.device;
    for (let i = 0; i < 5; i++) expect(await statusOf(postSession(server, { email: owner.email, password: `typo-${i}` }, { cookie: second }))).toBe(401);
    expect(await statusOf(postSession(server, owner, { cookie: second }))).toBe(429);
    expect(await statusOf(postSession(server, owner, { cookie: device }))).toBe(200);

    // A superuser resets the password; the owner sets a new one through the mailed link.
    const reset = await postForm(server, "/manage/users", { intent: "reset", id: userId(server, owner.email) }, admin);
    expect(reset.status).toBe(200);
    const set = await setPasswordWithToken(server, mailedToken(server.dataDir, owner.email, "user-reset"), "owner-password-2");
    expect(set.status).toBe(200);
    const linkDevice = devicePair(set);
    expect(linkDevice, "the browser that set the password becomes a device of the account").toBeDefined();
    // The lock is gone: a browser without any cookie signs in with the new password.
    expect(await whoAmI(server, (await signInWithDevice(server, owner.email, "owner-password-2")).session)).toMatchObject({ email: owner.email });

    // Device cookies from before the new password are no longer trusted; the link's one is.
    await strangersGuess(server, owner.email);
    expect(await statusOf(postSession(server, { email: owner.email, password: "owner-password-2" }, { cookie: device }))).toBe(429);
    expect(await statusOf(postSession(server, { email: owner.email, password: "owner-password-2" }, { cookie: linkDevice! }))).toBe(200);
  }, 90_000);

  it("answer an unknown address like a wrong password, with and without a device cookie", async () => {
    const { device } = await signInWithDevice(server, DEMO_ADMIN.email, DEMO_ADMIN.password);
    const answers = [];
    for (const cookie of [undefined, device]) {
      for (const email of ["nobody-at-all@example.com", DEMO_ADMIN.email]) {
        const res = await postSession(server, { email, password: "not-the-password-1" }, cookie ? { cookie } : {});
        answers.push({ status: res.status, body: await res.json(), cookies: res.headers.getSetCookie().length });
      }
    }
    for (const answer of answers) expect(answer).toEqual({ status: 401, body: { message: "E-Mail-Adresse oder Passwort ist falsch.", statusCode: 401 }, cookies: 0 });
  });
});

describe("the account page's current-password check", () => {
  let server: RunningServer;
  let admin: string;
  beforeAll(async () => {
    server = await startServer();
    admin = await signIn(server, DEMO_ADMIN.email, DEMO_ADMIN.password);
  });
  afterAll(() => server?.stop());

  const change = (cookie: string, current: string, password = "a-new-password-1") => postForm(server, "/manage/account", { intent: "password", current, password }, cookie);

  it("is throttled like sign-in, with the same per-account counts: a stolen session cannot guess the password", async () => {
    const user = { email: "stolen@example.com", password: "stolen-password-1" };
    const session = await createUser(server, admin, user);
    const statuses = await Promise.all(Array.from({ length: 10 }, (_, i) => statusOf(change(session, `guess-${i}`))));
    expect(statuses).toEqual(Array(10).fill(400));

    // The 11th is refused before the password is looked at, even the right one, with a message and Retry-After.
    const refused = await change(session, user.password);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(60);
    expect(await refused.text()).toContain("Zu viele falsche Passwörter. Bitte warten Sie 15 Minute(n)");
    // The same counts: signing in to the account is refused too.
    expect(await statusOf(postSession(server, user))).toBe(429);
    // The password did not change.
    expect(await whoAmI(server, session)).toMatchObject({ email: user.email });

    // In English for an English admin.
    expect(await statusOf(postForm(server, "/manage/account", { intent: "language", language: "en" }, session))).toBe(200);
    const english = await change(session, user.password);
    expect(english.status).toBe(429);
    const text = await english.text();
    expect(text).toContain("Too many wrong passwords. Please wait 15 minute(s)");
    expect(text).not.toContain("Zu viele");
  }, 60_000);

  it("counts failures of sign-in and of the account page together", async () => {
    const user = { email: "mixed@example.com", password: "mixed-password-1" };
    const session = await createUser(server, admin, user);
    await strangersGuess(server, user.email, 6);
    const statuses = await Promise.all(Array.from({ length: 4 }, (_, i) => statusOf(change(session, `guess-${i}`))));
    expect(statuses).toEqual(Array(4).fill(400));
    expect(await statusOf(change(session, user.password))).toBe(429);
  }, 60_000);

  it("lets the owner's device change the password while the account is locked; the change ends the lock, and signing out everywhere keeps only this browser trusted", async () => {
    const user = { email: "device-owner@example.com", password: "device-password-1" };
    await createUser(server, admin, user);
    const { session, device } = await signInWithDevice(server, user.email, user.password);
    await strangersGuess(server, user.email);
    expect(await statusOf(change(session, user.password))).toBe(429);
    const changed = await change(`${session}; ${device}`, user.password, "device-password-2");
    expect(changed.status).toBe(200);
    expect(devicePair(changed), "a device cookie for the new generation").toBeDefined();
    // The lock ended with the old password: a browser without cookies signs in with the new one.
    const fresh = await signIn(server, user.email, "device-password-2");

    // "Sign out everywhere" ends the trust of every device but keeps this browser's (a new cookie).
    const changedDevice = devicePair(changed)!;
    const everywhere = await postForm(server, "/manage/account", { intent: "sign-out-everywhere", confirmed: "yes" }, fresh);
    expect(everywhere.status).toBe(302);
    const kept = devicePair(everywhere);
    expect(kept).toBeDefined();
    await strangersGuess(server, user.email);
    const right = { email: user.email, password: "device-password-2" };
    expect(await statusOf(postSession(server, right, { cookie: changedDevice }))).toBe(429);
    expect(await statusOf(postSession(server, right, { cookie: kept! }))).toBe(200);
  }, 60_000);
});
