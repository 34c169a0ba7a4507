import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { AssetStore } from "../assets";
import { openDatabase } from "../db";
import { SquidexAuth } from "./auth";
import { ContentStore } from "../store";

let dir: string;
let store: ContentStore;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "praxisnetz-auth-"));
  const { db, dialect } = await openDatabase({ sqlitePath: path.join(dir, "db.sqlite") });
  store = new ContentStore(db, dialect, new AssetStore(path.join(dir, "assets"), 1024));
  await store.migrate();
});
afterAll(async () => {
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const bearer = (token: string) => `Bearer ${token}`;

describe("Squidex client-credential tokens", () => {
  it("accepts its own tokens and refuses wrong credentials", async () => {
    const auth = await SquidexAuth.create(store, { appName: "praxisnetz", dataDir: dir });
    const { clientSecret } = JSON.parse(fs.readFileSync(path.join(dir, "squidex-client.json"), "utf8")) as { clientSecret: string };
    expect(fs.statSync(path.join(dir, "squidex-client.json")).mode & 0o777).toBe(0o600);
    const token = await auth.issueToken("praxisnetz:default", clientSecret);
    expect(await auth.verify(bearer(token!))).toBe("client:praxisnetz:default");
    expect(await auth.issueToken("praxisnetz:default", `${clientSecret}x`)).toBeNull();
    expect(await auth.verify("Bearer not.a.token")).toBeNull();
  });

  it("revokes every token issued before the client secret changed", async () => {
    const before = await SquidexAuth.create(store, { appName: "praxisnetz", dataDir: dir, clientSecret: "first-secret-of-the-client" });
    const token = await before.issueToken("praxisnetz:default", "first-secret-of-the-client");
    const after = await SquidexAuth.create(store, { appName: "praxisnetz", dataDir: dir, clientSecret: "second-secret-of-the-client" });
    expect(await before.verify(bearer(token!))).not.toBeNull();
    expect(await after.verify(bearer(token!))).toBeNull();
    const fresh = await after.issueToken("praxisnetz:default", "second-secret-of-the-client");
    expect(await after.verify(bearer(fresh!))).not.toBeNull();
  });

  it("refuses a token without an expiry, even signed with the real key", async () => {
    const auth = await SquidexAuth.create(store, { appName: "praxisnetz", dataDir: dir, clientSecret: "first-secret-of-the-client" });
    const good = await auth.issueToken("praxisnetz:default", "first-secret-of-the-client");
    const claims = JSON.parse(Buffer.from(good!.split(".")[1]!, "base64url").toString()) as Record<string, unknown>;
    const key = Buffer.from((await store.getSetting("squidex-signing-key"))!, "base64");
    const { exp: _exp, ...noExp } = claims;
    const forever = await new SignJWT(noExp).setProtectedHeader({ alg: "HS256", typ: "JWT" }).sign(key);
    expect(await auth.verify(bearer(forever))).toBeNull();
    const same = await new SignJWT(claims).setProtectedHeader({ alg: "HS256", typ: "JWT" }).sign(key);
    expect(await auth.verify(bearer(same))).not.toBeNull();
  });

  it("a token it has already accepted is refused once it expires", async () => {
    const auth = await SquidexAuth.create(store, { appName: "praxisnetz", dataDir: dir, clientSecret: "first-secret-of-the-client" });
    const token = await auth.issueToken("praxisnetz:default", "first-secret-of-the-client");
    const { exp } = JSON.parse(Buffer.from(token!.split(".")[1]!, "base64url").toString()) as { exp: number };
    expect(await auth.verify(bearer(token!))).not.toBeNull();
    expect(await auth.verify(bearer(token!))).not.toBeNull();
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime((exp + 1) * 1000);
      expect(await auth.verify(bearer(token!))).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });
});
