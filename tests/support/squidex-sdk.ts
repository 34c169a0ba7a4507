import fs from "node:fs";
import path from "node:path";
import { SquidexClient } from "@squidex/squidex";
import { squidexToken, type RunningServer } from "./server";

/** The official SDK pointed at a running server's embedded Squidex API, with the client the server made for itself. */
export function sdkClient(server: RunningServer): SquidexClient {
  const credentials = JSON.parse(fs.readFileSync(path.join(server.dataDir, "squidex-client.json"), "utf8")) as { clientId: string; clientSecret: string };
  return new SquidexClient({ appName: "praxisnetz", clientId: credentials.clientId, clientSecret: credentials.clientSecret, url: `${server.url}/api/squidex` });
}

/** A JSON request to `api{p}` with a fresh bearer token, answered as status, text and parsed body. */
export async function authedApi(server: RunningServer, p: string, init: RequestInit = {}) {
  const res = await fetch(`${server.url}/api/squidex/api${p}`, {
    ...init,
    headers: { authorization: `Bearer ${await squidexToken(server)}`, "content-type": "application/json", ...(init.headers as Record<string, string>) },
  });
  const text = await res.text();
  return { status: res.status, text, json: text ? JSON.parse(text) : undefined };
}
