import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");

export interface RunningServer {
  url: string;
  dataDir: string;
  proc: ChildProcess;
  /** Everything the server printed so far (JSON log lines). */
  output(): string;
  /** Milliseconds from spawn until /healthz answered 200. */
  startMs: number;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export function tempDataDir(prefix = "praxisnetz-test-"): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

const live = new Set<ChildProcess>();
process.once("exit", () => {
  for (const proc of live) proc.kill("SIGKILL");
});

/** How long a test server may take to say it listens (a limit for slow machines, not a timing assertion). */
const START_TIMEOUT_MS = 240_000;

/** Starts the production build (`node server.js`) on a free loopback port with its own data dir. */
export async function startServer(opts: { dataDir?: string; env?: Record<string, string> } = {}): Promise<RunningServer> {
  const dataDir = opts.dataDir ?? tempDataDir();
  const started = performance.now();
  const proc = spawn(process.execPath, [path.join(root, "server.js")], {
    cwd: root,
    env: { ...process.env, NODE_ENV: "production", PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir, LOG_LEVEL: "info", ...opts.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  // A test that gave up on its server (a hook's timeout) must not leave it running past the test file.
  live.add(proc);
  proc.once("exit", () => live.delete(proc));
  let out = "";
  proc.stdout!.on("data", (d) => (out += d));
  proc.stderr!.on("data", (d) => (out += d));
  const port = await new Promise<number>((resolve, reject) => {
    // A store of 100 000 items builds its side tables at start: minutes on a busy 2-core machine.
    // Given up, the process is killed, so no server outlives its test.
    const timer = setTimeout(() => {
      proc.kill("SIGKILL");
      reject(new Error(`server did not start within ${START_TIMEOUT_MS / 1000} s:\n${out}`));
    }, START_TIMEOUT_MS);
    const check = () => {
      const m = out.match(/"port":(\d+)[^\n]*"msg":"Praxisnetz listening"/);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    };
    proc.stdout!.on("data", check);
    proc.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${out}`));
    });
  });
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    const res = await fetch(`${url}/healthz`).catch(() => undefined);
    if (res?.ok) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const startMs = Math.round(performance.now() - started);
  return {
    url,
    dataDir,
    proc,
    startMs,
    output: () => out,
    stop: (signal = "SIGTERM") =>
      new Promise((resolve) => {
        if (proc.exitCode !== null) return resolve(proc.exitCode);
        proc.once("exit", (code) => resolve(code));
        proc.kill(signal);
      }),
  };
}

export async function postJson(url: string, body: unknown, init: RequestInit = {}) {
  return fetchJson(url, {
    method: "POST",
    body: typeof body === "string" ? body : JSON.stringify(body),
    ...init,
    headers: { "content-type": "application/json", ...(init.headers as Record<string, string> | undefined) },
  });
}

/** Any request; the answer's status, headers, text and (when it parses) JSON. */
export async function fetchJson(url: string, init: RequestInit = {}) {
  const res = await fetch(url, init);
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, json: json as any, text };
}

/** The client credentials of a server's Squidex API, as it wrote them on first start. */
export function squidexClient(server: Pick<RunningServer, "dataDir">): { clientId: string; clientSecret: string } {
  return JSON.parse(fs.readFileSync(path.join(server.dataDir, "squidex-client.json"), "utf8")) as { clientId: string; clientSecret: string };
}

/**
 * A second server on `remote`'s app as its remote Squidex (decision 0037), driven by the webhook
 * (signed with `webhookSecret`) rather than by polling, so every step of a test is deterministic.
 */
export function startMirrorOf(remote: Pick<RunningServer, "url" | "dataDir">, webhookSecret: string, env: Record<string, string> = {}): Promise<RunningServer> {
  const creds = squidexClient(remote);
  return startServer({
    env: {
      SQUIDEX_URL: `${remote.url}/api/squidex`,
      SQUIDEX_APP: "praxisnetz",
      SQUIDEX_CLIENT_ID: creds.clientId,
      SQUIDEX_CLIENT_SECRET: creds.clientSecret,
      SQUIDEX_SYNC_INTERVAL_MS: "0",
      SQUIDEX_WEBHOOK_SECRET: webhookSecret,
      RATE_LIMIT_PER_HOUR: "100000",
      ...env,
    },
  });
}

/** A bearer token for the server's Squidex API, with the client credentials it wrote on first start. */
export async function squidexToken(server: Pick<RunningServer, "url" | "dataDir">): Promise<string> {
  const creds = squidexClient(server);
  const res = await fetch(`${server.url}/api/squidex/identity-server/connect/token`, {
    method: "POST",
    body: new URLSearchParams({ grant_type: "client_credentials", client_id: creds.clientId, client_secret: creds.clientSecret, scope: "squidex-api" }),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}
