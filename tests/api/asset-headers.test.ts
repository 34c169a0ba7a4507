import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../support/auth";
import { startServer, type RunningServer } from "../support/server";

/**
 * An asset's answer names each header once (issue 20, finding 10b): `X-Content-Type-Options` came
 * from helmet and from the asset route, so it went out twice. Read from the raw header lines, which
 * fetch would join into one value.
 */

let server: RunningServer;

beforeAll(async () => {
  server = await startServer();
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

/** The raw header names and values of a GET, as the server wrote them. */
function rawHeaders(url: string): Promise<{ status: number; lines: Array<[string, string]> }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (res) => {
        res.resume();
        const lines: Array<[string, string]> = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) lines.push([res.rawHeaders[i]!.toLowerCase(), res.rawHeaders[i + 1]!]);
        res.on("end", () => resolve({ status: res.statusCode!, lines }));
      })
      .on("error", reject);
  });
}

describe("asset answers", () => {
  it("send X-Content-Type-Options once, and no other header twice", async () => {
    const db = openStore(server.dataDir);
    const assets = db.prepare("select id, mime_type from assets order by mime_type").all() as Array<{ id: string; mime_type: string }>;
    db.close();
    expect(assets.length).toBeGreaterThan(0);
    // One of each type the demo has (SVGs answer with their own sandboxing policy).
    const picked = [...new Map(assets.map((a) => [a.mime_type, a])).values()];
    for (const asset of picked) {
      const { status, lines } = await rawHeaders(`${server.url}/api/assets/${asset.id}`);
      expect(status, asset.mime_type).toBe(200);
      expect(lines.filter(([name]) => name === "x-content-type-options"), asset.mime_type).toEqual([["x-content-type-options", "nosniff"]]);
      const names = lines.map(([name]) => name).filter((name) => name !== "set-cookie");
      expect(names.filter((name, i) => names.indexOf(name) !== i), asset.mime_type).toEqual([]);
    }
  });
});
