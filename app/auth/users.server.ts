import { randomUUID } from "node:crypto";
import type { Database, DB } from "~/content/db";
import { isUniqueViolation } from "~/content/db";
import { ContentError } from "~/content/errors";
import type { Language } from "~/i18n/languages";
import { normalizeEmail } from "~/lib/input";
import { hashPassword } from "./password.server";

/** A user as the app passes it around: never the password hash. */
export interface User {
  id: string;
  email: string;
  name: string;
  role: "editor";
  superuser: boolean;
  language: Language;
  /** Sessions issued under another number are over. */
  sessionGeneration: number;
  /** Invited, no password yet. */
  pending: boolean;
  created: string;
  lastSignIn: string | null;
}

type Row = Database["users"];


function toUser(row: Row): User {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: "editor",
    superuser: Number(row.superuser) === 1,
    language: row.language === "en" ? "en" : "de",
    sessionGeneration: Number(row.session_generation),
    pending: row.password_hash === null,
    created: row.created,
    lastSignIn: row.last_sign_in,
  };
}

export interface NewUser {
  email: string;
  name?: string;
  /** Omitted: an invited user who sets one through a signed link. */
  password?: string;
  superuser?: boolean;
  language?: Language;
}

/** Users in the database. Passwords are hashed here; callers check the password rules first. */
export class UserStore {
  constructor(private readonly db: DB) {}

  async count(): Promise<number> {
    const row = await this.db.selectFrom("users").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async list(): Promise<User[]> {
    const rows = await this.db.selectFrom("users").selectAll().orderBy("email").execute();
    return rows.map(toUser);
  }

  async get(id: string): Promise<User | undefined> {
    const row = await this.db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
    return row && toUser(row);
  }

  /**
   * The user of a session and whether that session was signed out: one read (the user by primary
   * key, the ended session by primary key, joined), the one every request with a cookie makes.
   */
  async forSession(id: string, sid: string): Promise<{ user: User; ended: boolean } | undefined> {
    const row = await this.db
      .selectFrom("users")
      .leftJoin("ended_sessions", (join) => join.on("ended_sessions.sid", "=", sid))
      .selectAll("users")
      .select("ended_sessions.sid as ended_sid")
      .where("users.id", "=", id)
      .executeTakeFirst();
    return row && { user: toUser(row), ended: row.ended_sid !== null };
  }

  /** Ends one session on every app node: its id is refused until `expires`, when no cookie of it is valid anyway. */
  async endSession(sid: string, userId: string, expires: Date): Promise<void> {
    await this.db
      .insertInto("ended_sessions")
      .values({ sid, user_id: userId, expires: expires.toISOString() })
      .onConflict((oc) => oc.column("sid").doNothing())
      .execute();
  }

  /** Forgets ended sessions whose cookies have all expired (maintenance, hourly). */
  async purgeEndedSessions(now: Date): Promise<number> {
    const result = await this.db.deleteFrom("ended_sessions").where("expires", "<", now.toISOString()).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** The user and their hash, for signing in. */
  async credentials(email: string): Promise<{ user: User; hash: string | null } | undefined> {
    const row = await this.db.selectFrom("users").selectAll().where("email", "=", normalizeEmail(email)).executeTakeFirst();
    return row && { user: toUser(row), hash: row.password_hash };
  }

  async create(input: NewUser): Promise<User> {
    // The address was checked by the caller's form (inviteForm: the one engine's email rule).
    const email = normalizeEmail(input.email);
    const now = new Date().toISOString();
    const row: Row = {
      id: randomUUID(),
      email,
      name: (input.name ?? "").trim() || email.split("@")[0]!,
      password_hash: input.password === undefined ? null : await hashPassword(input.password),
      role: "editor",
      superuser: input.superuser ? 1 : 0,
      language: input.language ?? "de",
      session_generation: 1,
      created: now,
      updated: now,
      last_sign_in: null,
    };
    try {
      await this.db.insertInto("users").values(row).execute();
    } catch (error) {
      if (isUniqueViolation(error)) throw new ContentError(409, "A user with this e-mail address exists already.");
      throw error;
    }
    return toUser(row);
  }

  /** A new password; every session issued before ends (the generation moves on). */
  async setPassword(id: string, password: string): Promise<void> {
    const password_hash = await hashPassword(password);
    await this.db
      .updateTable("users")
      .set((eb) => ({ password_hash, session_generation: eb("session_generation", "+", 1), updated: new Date().toISOString() }))
      .where("id", "=", id)
      .execute();
  }

  /** Ends every session of the user, on every app node (sign out everywhere). */
  async endSessions(id: string): Promise<void> {
    await this.db
      .updateTable("users")
      .set((eb) => ({ session_generation: eb("session_generation", "+", 1), updated: new Date().toISOString() }))
      .where("id", "=", id)
      .execute();
  }

  async update(id: string, changes: { name?: string; superuser?: boolean; language?: Language }): Promise<User | undefined> {
    const set: Partial<Row> = { updated: new Date().toISOString() };
    if (changes.name !== undefined) set.name = changes.name.trim();
    if (changes.superuser !== undefined) set.superuser = changes.superuser ? 1 : 0;
    if (changes.language !== undefined) set.language = changes.language;
    await this.db.updateTable("users").set(set).where("id", "=", id).execute();
    return this.get(id);
  }

  async signedIn(id: string): Promise<void> {
    await this.db.updateTable("users").set({ last_sign_in: new Date().toISOString() }).where("id", "=", id).execute();
  }

  async remove(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom("users").where("id", "=", id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async superuserCount(): Promise<number> {
    const row = await this.db.selectFrom("users").select((eb) => eb.fn.countAll<number>().as("n")).where("superuser", "=", 1).executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
