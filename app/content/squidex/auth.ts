import { createHmac, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { jwtVerify, SignJWT } from "jose";
import { LRUCache } from "lru-cache";
import type { ContentStore } from "../store";
import { sameSecret } from "~/lib/same-secret";

/** Token lifetime Squidex uses for client credentials: 30 days. */
export const TOKEN_SECONDS = 30 * 24 * 3600;

/**
 * Client-credentials auth for the Squidex HTTP API. The signing key and the client secret live in the
 * database, so every app node accepts every node's tokens. A generated secret is also written to
 * `DATA_DIR/squidex-client.json` (mode 600) so the operator can find it.
 *
 * Every token carries the generation of the secret it was issued for (`gen`, a keyed fingerprint
 * that does not reveal the secret): a new secret (`SQUIDEX_CLIENT_SECRET`) revokes every token issued
 * before it. Tokens without an expiry are refused.
 */
export class SquidexAuth {
  private constructor(
    readonly appName: string,
    readonly clientId: string,
    private readonly secret: string,
    private readonly key: Uint8Array,
  ) {
    this.generation = createHmac("sha256", key).update(`client-secret:${secret}`).digest("base64url").slice(0, 22);
  }

  private readonly generation: string;
  /**
   * Tokens this node has verified, with their expiry: a client sends the same token with every
   * request, and checking its signature again each time was a tenth of what a create cost. Only
   * valid tokens get in (we signed them), and few at a time.
   */
  private readonly verified = new LRUCache<string, number>({ max: 1000 });

  static async create(store: ContentStore, opts: { appName: string; clientSecret?: string; dataDir: string }): Promise<SquidexAuth> {
    const key = await store.ensureSetting("squidex-signing-key", randomBytes(32).toString("base64"));
    const generated = randomBytes(24).toString("base64url");
    const stored = await store.ensureSetting("squidex-client-secret", generated);
    const clientId = `${opts.appName}:default`;
    if (stored === generated) {
      fs.mkdirSync(opts.dataDir, { recursive: true });
      fs.writeFileSync(path.join(opts.dataDir, "squidex-client.json"), JSON.stringify({ clientId, clientSecret: stored }, null, 2), { mode: 0o600 });
    }
    return new SquidexAuth(opts.appName, clientId, opts.clientSecret || stored, Buffer.from(key, "base64"));
  }

  /** Checks `client_id`/`client_secret` (`app:client` or `app~client`) and issues a signed token. */
  async issueToken(clientId: string, clientSecret: string): Promise<string | null> {
    const normalized = clientId.replace("~", ":");
    if (normalized !== this.clientId || !sameSecret(clientSecret, this.secret)) return null;
    return new SignJWT({ client_id: normalized, scope: "squidex-api", gen: this.generation })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setSubject(normalized)
      .setIssuedAt()
      .setExpirationTime(`${TOKEN_SECONDS}s`)
      .sign(this.key);
  }

  /** The actor ref token of a valid bearer token, or null. */
  async verify(authorization: string | null): Promise<string | null> {
    const match = authorization?.match(/^Bearer\s+(\S+)$/i);
    if (!match) return null;
    try {
      const token = match[1]!;
      const expires = this.verified.get(token);
      if (expires !== undefined && expires > Date.now()) return `client:${this.clientId}`;
      const { payload } = await jwtVerify(token, this.key, { algorithms: ["HS256"], requiredClaims: ["exp", "iat", "sub"] });
      if (payload.sub !== this.clientId || payload.gen !== this.generation) return null;
      this.verified.set(token, payload.exp! * 1000);
      return `client:${this.clientId}`;
    } catch {
      return null;
    }
  }
}

