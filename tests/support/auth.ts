import path from "node:path";
import Database from "better-sqlite3";
import { expect } from "vitest";
import type { RunningServer } from "./server";

/**
 * Sign-in helpers for API tests: real requests against a running server (tests/support/server.ts),
 * and reads of its SQLite store (DATA_DIR/praxisnetz.sqlite) where a test needs what only a mailbox
 * or the database would show (invitation links, the session key).
 */

/** The demo superuser a fresh store gets when ADMIN_EMAIL/ADMIN_PASSWORD are unset (app/auth/auth.server.ts). */
export const DEMO_ADMIN = { email: "admin@praxisnetz.localhost", password: "praxisnetz-demo" } as const;

export type Server = Pick<RunningServer, "url" | "dataDir">;

/** Opens the server's SQLite store (WAL: reading beside the running server is fine). */
export function openStore(dataDir: string, readonly = true): Database.Database {
  return new Database(path.join(dataDir, "praxisnetz.sqlite"), { readonly, fileMustExist: true });
}

export function readSetting(dataDir: string, key: string): string | undefined {
  const db = openStore(dataDir);
  try {
    return (db.prepare("select value from app_settings where key = ?").get(key) as { value: string } | undefined)?.value;
  } finally {
    db.close();
  }
}

/** The `pn_session=…` pair of a response's Set-Cookie ("" when it clears the cookie), or undefined without one. */
export function sessionPair(res: { headers: Headers }): string | undefined {
  const header = res.headers.getSetCookie().find((c) => c.startsWith("pn_session="));
  if (header === undefined) return undefined;
  return header.split(";")[0]!;
}

/** The raw Set-Cookie header for the session cookie. */
export function sessionSetCookie(res: { headers: Headers }): string | undefined {
  return res.headers.getSetCookie().find((c) => c.startsWith("pn_session="));
}

/** True when the response clears the session cookie (empty value, Max-Age=0). */
export function clearsSession(res: { headers: Headers }): boolean {
  const header = sessionSetCookie(res);
  return !!header && header.startsWith("pn_session=;") && /Max-Age=0/i.test(header);
}

/** POST /api/_auth/session (same-origin), the raw response. */
export function postSession(server: Server, body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${server.url}/api/_auth/session`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url, ...headers },
    body: JSON.stringify(body),
  });
}

/** Signs in through the JSON API; returns the `pn_session=…` pair to send as Cookie. */
export async function signIn(server: Server, email: string, password: string, headers: Record<string, string> = {}): Promise<string> {
  const res = await postSession(server, { email, password }, headers);
  const text = await res.text();
  expect(res.status, `sign-in of ${email}: ${text}`).toBe(200);
  const pair = sessionPair(res);
  expect(pair, "sign-in sets the session cookie").toMatch(/^pn_session=[\w.-]{20,}$/);
  return pair!;
}

/** GET /api/_auth/session with a cookie: the user answered, or null. */
export async function whoAmI(server: Server, cookie: string): Promise<{ email: string; superuser: boolean } | null> {
  const res = await fetch(`${server.url}/api/_auth/session`, { headers: { cookie } });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { user?: { email: string; superuser: boolean } };
  return body.user ?? null;
}

/** A same-origin form POST (as the browser sends one from our own page), without following redirects. */
export function postForm(server: Server, pathname: string, fields: Record<string, string>, cookie?: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${server.url}${pathname}`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url, ...(cookie ? { cookie } : {}), ...headers },
    body: new URLSearchParams(fields),
  });
}

/** The newest set-password link mailed to `email` (the outbox table), as its token. */
export function mailedToken(dataDir: string, email: string, kind = "user-invite"): string {
  const db = openStore(dataDir);
  try {
    const row = db.prepare("select text, html from outbox where recipient = ? and kind = ? order by created desc limit 1").get(email, kind) as { text: string; html: string } | undefined;
    expect(row, `an outbox row of kind ${kind} for ${email}`).toBeDefined();
    const m = `${row!.text}\n${row!.html}`.match(/\/login\?token=([^\s"'<>&)]+)/);
    expect(m, "the mail carries a set-password link").not.toBeNull();
    return decodeURIComponent(m![1]!);
  } finally {
    db.close();
  }
}

/** Invites a user as `adminCookie` through /manage/users and returns the token from the mailed link. */
export async function invite(server: Server, adminCookie: string, user: { email: string; name?: string; superuser?: boolean }): Promise<string> {
  const res = await postForm(server, "/manage/users", { intent: "invite", email: user.email, name: user.name ?? "Test", ...(user.superuser ? { superuser: "on" } : {}) }, adminCookie);
  await res.arrayBuffer();
  expect(res.status, "the invitation is accepted").toBe(201);
  return mailedToken(server.dataDir, user.email.toLowerCase());
}

/** POST /api/_auth/password with an invitation/reset token. */
export async function setPasswordWithToken(server: Server, token: string, password: string): Promise<Response> {
  return fetch(`${server.url}/api/_auth/password`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url },
    body: JSON.stringify({ token, password, password_confirm: password }),
  });
}

/** A new user with a password, made through the superuser's invite flow; returns a session cookie for them. */
export async function createUser(server: Server, adminCookie: string, user: { email: string; name?: string; password: string; superuser?: boolean }): Promise<string> {
  const token = await invite(server, adminCookie, user);
  const res = await setPasswordWithToken(server, token, user.password);
  const text = await res.text();
  expect(res.status, `set password: ${text}`).toBe(200);
  return signIn(server, user.email, user.password);
}
