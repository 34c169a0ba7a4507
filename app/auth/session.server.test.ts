import { describe, expect, it } from "vitest";
import { clearedSessionCookie, newSessionKey, readSessionCookie, RENEW_AFTER_SECONDS, sessionCookie, SessionSealer } from "./session.server";

const TIMES = { idleSeconds: 3600, maxSeconds: 24 * 3600 };
/** A clock the test moves by hand (milliseconds). */
function clock(start = Date.UTC(2026, 0, 15, 9, 0, 0)) {
  let now = start;
  return { now: () => now, advance: (seconds: number) => (now += seconds * 1000), seconds: () => Math.floor(now / 1000) };
}

describe("SessionSealer", () => {
  it("opens what it sealed, and nothing sealed with another key", async () => {
    const c = clock();
    const key = newSessionKey();
    const sealer = new SessionSealer(key, TIMES, c.now);
    const { value, maxAge } = await sealer.seal({ uid: "u1", gen: 3, auth: c.seconds() });
    expect(maxAge).toBe(TIMES.idleSeconds);
    expect(await sealer.open(value)).toEqual({ sid: expect.stringMatching(/^[\w-]{22}$/), uid: "u1", gen: 3, auth: c.seconds(), seen: c.seconds() });
    expect(await new SessionSealer(key, TIMES, c.now).open(value)).not.toBeNull();
    expect(await new SessionSealer(newSessionKey(), TIMES, c.now).open(value)).toBeNull();
    // Nothing readable inside: the claims are encrypted (JWE), not just signed.
    for (const part of value.split(".")) expect(Buffer.from(part, "base64url").toString("latin1")).not.toContain("u1");
  });

  it("gives every new session an id of its own, and refuses a cookie without one (it could not be signed out)", async () => {
    const c = clock();
    const key = newSessionKey();
    const sealer = new SessionSealer(key, TIMES, c.now);
    const a = await sealer.open((await sealer.seal({ uid: "u1", gen: 1, auth: c.seconds() })).value);
    const b = await sealer.open((await sealer.seal({ uid: "u1", gen: 1, auth: c.seconds() })).value);
    expect(a!.sid).not.toBe(b!.sid);
    const { EncryptJWT } = await import("jose");
    const legacy = await new EncryptJWT({ uid: "u1", gen: 1, auth: c.seconds(), seen: c.seconds() })
      .setProtectedHeader({ alg: "dir", enc: "A256GCM" })
      .setExpirationTime(c.seconds() + 60)
      .encrypt(Buffer.from(key, "base64url"));
    expect(await sealer.open(legacy)).toBeNull();
    expect(sealer.lastValid({ auth: 1000 }).getTime()).toBe((1000 + TIMES.maxSeconds) * 1000);
  });

  it("refuses a key that is not 32 bytes", () => {
    expect(() => new SessionSealer(Buffer.alloc(16).toString("base64url"), TIMES)).toThrow(/32 bytes/);
  });

  it("refuses any tampered part, truncation, garbage, and oversized values", async () => {
    const c = clock();
    const sealer = new SessionSealer(newSessionKey(), TIMES, c.now);
    const { value } = await sealer.seal({ uid: "u1", gen: 1, auth: c.seconds() });
    const parts = value.split(".");
    for (let i = 0; i < parts.length; i++) {
      if (!parts[i]) continue;
      const bytes = Buffer.from(parts[i]!, "base64url");
      bytes[bytes.length >> 1]! ^= 0x01;
      const tampered = parts.map((p, j) => (j === i ? bytes.toString("base64url") : p)).join(".");
      expect(await sealer.open(tampered), `part ${i}`).toBeNull();
    }
    for (const bad of [undefined, "", "garbage", parts.slice(0, 4).join("."), `${value}x`, `${value}${"A".repeat(1100)}`]) expect(await sealer.open(bad)).toBeNull();
  });

  it("expires after the idle time and after the absolute time, whichever comes first", async () => {
    const c = clock();
    const sealer = new SessionSealer(newSessionKey(), TIMES, c.now);
    const signedIn = c.seconds();
    const first = await sealer.seal({ uid: "u1", gen: 1, auth: signedIn });
    c.advance(TIMES.idleSeconds - 1);
    expect(await sealer.open(first.value)).not.toBeNull();
    c.advance(2);
    expect(await sealer.open(first.value), "idle too long").toBeNull();

    // Renewed every 50 minutes, the session lives until the absolute limit and not a second longer.
    const d = clock();
    const s2 = new SessionSealer(newSessionKey(), TIMES, d.now);
    const auth = d.seconds();
    let cookie = (await s2.seal({ uid: "u1", gen: 1, auth })).value;
    while (d.seconds() - auth + 50 * 60 < TIMES.maxSeconds) {
      d.advance(50 * 60);
      const claims = await s2.open(cookie);
      expect(claims, `at ${d.seconds() - auth} s`).not.toBeNull();
      expect(s2.needsRenewal(claims!)).toBe(true);
      const renewed = await s2.seal({ uid: claims!.uid, gen: claims!.gen, auth: claims!.auth });
      expect(renewed.maxAge).toBeLessThanOrEqual(TIMES.idleSeconds);
      expect(renewed.maxAge).toBe(Math.min(TIMES.idleSeconds, auth + TIMES.maxSeconds - d.seconds()));
      cookie = renewed.value;
    }
    d.advance(auth + TIMES.maxSeconds - d.seconds() + 1);
    expect(await s2.open(cookie), "past the absolute limit").toBeNull();
  });

  it("asks for renewal only after RENEW_AFTER_SECONDS, and a renewal keeps the sign-in time", async () => {
    const c = clock();
    const sealer = new SessionSealer(newSessionKey(), TIMES, c.now);
    const auth = c.seconds();
    const { value } = await sealer.seal({ uid: "u1", gen: 1, auth });
    c.advance(RENEW_AFTER_SECONDS - 1);
    expect(sealer.needsRenewal((await sealer.open(value))!)).toBe(false);
    c.advance(1);
    const claims = (await sealer.open(value))!;
    expect(sealer.needsRenewal(claims)).toBe(true);
    const renewed = await sealer.seal({ sid: claims.sid, uid: claims.uid, gen: claims.gen, auth: claims.auth });
    expect(await sealer.open(renewed.value)).toEqual({ sid: claims.sid, uid: "u1", gen: 1, auth, seen: c.seconds() });
    // The renewed cookie outlives the first one's idle limit.
    c.advance(TIMES.idleSeconds - RENEW_AFTER_SECONDS - 10);
    expect(await sealer.open(value)).not.toBeNull();
    c.advance(20);
    expect(await sealer.open(value)).toBeNull();
    expect(await sealer.open(renewed.value)).not.toBeNull();
  });
});

describe("session cookies", () => {
  it("are HttpOnly, SameSite=Lax, Path=/, Secure only when asked", () => {
    expect(sessionCookie("abc", 60, false)).toBe("pn_session=abc; Path=/; Max-Age=60; HttpOnly; SameSite=Lax");
    expect(sessionCookie("abc", 60, true)).toBe("pn_session=abc; Path=/; Max-Age=60; HttpOnly; SameSite=Lax; Secure");
    expect(clearedSessionCookie(true)).toBe("pn_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax; Secure");
  });

  it("are read from a Cookie header: the first pn_session, only token characters", () => {
    expect(readSessionCookie(undefined)).toBeUndefined();
    expect(readSessionCookie("")).toBeUndefined();
    expect(readSessionCookie("a=1; pn_session=abc.def-ghi_j; b=2")).toBe("abc.def-ghi_j");
    expect(readSessionCookie("pn_session=first; pn_session=second")).toBe("first");
    expect(readSessionCookie("xpn_session=abc")).toBeUndefined();
    expect(readSessionCookie("pn_session=")).toBeUndefined();
    expect(readSessionCookie('pn_session="quoted"')).toBeUndefined();
    expect(readSessionCookie("pn_session=a%20b")).toBeUndefined();
  });
});
