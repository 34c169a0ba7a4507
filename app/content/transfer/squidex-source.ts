import { ARCHIVE_FORMAT, ARCHIVE_VERSION, ArchiveError, emptyCounts, writeArchive, type ArchiveRecord, type Counts } from "./archive";
import { assetContentPath, assetRow, folderRow, itemRecord, listRemoteAssets, listRemoteFolders, schemaRow } from "../remote/squidex-rows";
import { createRemoteSquidex, RemoteSquidexError, type RemoteSquidex } from "../remote/squidex-client";

/** How the import reaches a Squidex app: its base URL (before `/api`), app name and client credentials. */
export interface SquidexSource {
  url: string;
  app: string;
  clientId: string;
  clientSecret: string;
}

const PAGE = 200;
const ACTOR = "client:praxisnetz:import";

type Json = Record<string, any>;

/**
 * Reads a live Squidex app over its HTTP API (token by client credentials; schemas; every item of
 * every content schema, drafts included, and the live data of published ones; asset folders; assets
 * and their bytes) and writes it as a content archive, which the import then reads like any other.
 * Squidex serves an item's current and live state only, not its older versions: that is what comes.
 */
export async function squidexToArchive(source: SquidexSource, file: string): Promise<Counts> {
  const app = encodeURIComponent(source.app);
  const send = squidexRequests(source);
  const get = async (path: string, headers: Record<string, string> = {}): Promise<Response> => {
    const res = await send("GET", path, { headers });
    if (!res.ok) throw new ArchiveError(`Squidex answered ${res.status} to GET ${path}: ${(await res.text()).slice(0, 200)}`);
    return res;
  };
  const getJson = async (path: string, headers?: Record<string, string>) => (await (await get(path, headers)).json()) as Json;

  const records: ArchiveRecord[] = [];
  const schemas = ((await getJson(`api/apps/${app}/schemas`)).items ?? []) as Json[];
  for (const s of schemas) records.push({ type: "schema", row: schemaRow(s, ACTOR) });

  for (const s of schemas) {
    if (s.type === "Component") continue;
    const list = async (unpublished: boolean) => {
      const items: Json[] = [];
      for (let skip = 0; ; skip += PAGE) {
        const page = await getJson(`api/content/${app}/${encodeURIComponent(s.name)}?$top=${PAGE}&$skip=${skip}`, unpublished ? { "X-Unpublished": "1" } : {});
        const got = (page.items ?? []) as Json[];
        items.push(...got);
        if (got.length < PAGE) break;
      }
      return items;
    };
    const live = new Map((await list(false)).map((i) => [String(i.id), i]));
    for (const item of await list(true)) {
      records.push({ type: "item", row: itemRecord(String(s.name), item, live.get(String(item.id)), ACTOR) });
    }
  }

  const now = new Date().toISOString();
  for (const f of await listRemoteFolders(getJson, source.app)) records.push({ type: "folder", row: folderRow(f, ACTOR, now) });
  const assets = await listRemoteAssets(getJson, source.app);

  const counts = emptyCounts();
  for (const r of records) counts[r.type]++;
  counts.asset = assets.length;
  return writeArchive(file, async (writer) => {
    await writer.write({ type: "header", format: ARCHIVE_FORMAT, version: ARCHIVE_VERSION, exportedAt: now, counts });
    for (const r of records) await writer.write(r);
    for (const a of assets) {
      const bytes = Buffer.from(await (await get(assetContentPath(source.app, String(a.id)))).arrayBuffer());
      await writer.write({
        type: "asset",
        row: assetRow(a, ACTOR, bytes.length),
        bytes: bytes.toString("base64"),
      });
    }
    return counts;
  });
}

/**
 * API calls to a Squidex app through the one remote client (app/content/remote/squidex-client.ts:
 * its token, kept and renewed after a 401, and its retries), failures as archive errors in words.
 */
export function squidexRequests(source: SquidexSource): RemoteSquidex["request"] {
  const base = source.url.replace(/\/+$/, "");
  const remote = createRemoteSquidex({ url: base, app: source.app, clientId: source.clientId, clientSecret: source.clientSecret, timeoutMs: 60_000 });
  return async (method, path, opts) => {
    try {
      return await remote.request(method, path, opts);
    } catch (error) {
      if (error instanceof RemoteSquidexError) throw new ArchiveError(`Squidex refused the client credentials (${error.status}${error.detail ? `: ${error.detail}` : ""}).`);
      throw new ArchiveError(`Squidex at ${base} cannot be reached (${(error as Error).cause ?? (error as Error).message}).`);
    }
  };
}
