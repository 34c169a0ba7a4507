import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { AssetStore } from "../assets";
import { openDatabase } from "../db";
import { ContentError } from "../errors";
import { ContentStore } from "../store";
import { parseEnv } from "~/env.server";
import { ArchiveError, progressReporter, RECORD_KINDS, type Counts } from "./archive";
import { exportContent } from "./export";
import { importContent } from "./import";
import { squidexToArchive } from "./squidex-source";
import { archiveToSquidex } from "./squidex-target";

const EXPORT_USAGE = "usage: npm run content:export -- [--out <file.ndjson.gz>]\n       npm run content:export -- --to-squidex <url> <app> <client id> <client secret>";
const IMPORT_USAGE = "usage: npm run content:import -- <file.ndjson.gz>\n       npm run content:import -- --from-squidex <url> <app> <client id> <client secret>";

interface Io {
  out: (line: string) => void;
  /** Where progress goes: rewritten in place when it is a terminal. */
  progress: { isTTY?: boolean; write(s: string): unknown };
}

const defaultIo = (): Io => ({ out: (line) => console.log(line), progress: process.stderr });

/** The store the server uses (DATA_DIR or DATABASE_URL, as the server reads them), migrated. */
async function openStore(): Promise<ContentStore> {
  const env = parseEnv();
  const { db, dialect } = await openDatabase({ databaseUrl: env.DATABASE_URL, sqlitePath: env.sqlitePath });
  const store = new ContentStore(db, dialect, new AssetStore(env.assetsDir, env.ASSET_MAX_BYTES));
  await store.migrate();
  return store;
}

const summary = (counts: Counts) => RECORD_KINDS.map((k) => `${counts[k]} ${k}${counts[k] === 1 ? "" : "s"}`).join(", ");

/** A fault the person can act on (bad input, a bad archive) as its message; anything else as one line too. */
function explain(error: unknown): string {
  if (error instanceof ArchiveError || error instanceof ContentError) return error.message;
  const code = (error as { code?: string }).code;
  if (code === "ENOENT" || code === "EACCES" || code === "EISDIR") return String((error as Error).message);
  return `Failed: ${error instanceof Error ? error.message : String(error)}`;
}

/** `npm run content:export`: the whole content of the store into one archive (transfer/archive.ts). Returns the exit code. */
export async function contentExportCommand(argv: string[], err: (line: string) => void = console.error, io: Io = defaultIo()): Promise<number> {
  let values, positionals;
  try {
    ({ values, positionals } = parseArgs({ args: argv, options: { out: { type: "string", short: "o" }, "to-squidex": { type: "boolean" } }, allowPositionals: true, strict: true }));
  } catch (error) {
    err(`${error instanceof Error ? error.message : error}\n${EXPORT_USAGE}`);
    return 2;
  }
  const toSquidex = values["to-squidex"] === true;
  if (positionals.length !== (toSquidex ? 4 : 0) || (toSquidex && values.out)) {
    err(EXPORT_USAGE);
    return 2;
  }
  const temp = toSquidex ? await fs.mkdtemp(path.join(os.tmpdir(), "praxisnetz-squidex-")) : undefined;
  const file = temp ? path.join(temp, "export.ndjson.gz") : path.resolve(values.out ?? `praxisnetz-export-${new Date().toISOString().slice(0, 10)}.ndjson.gz`);
  let store: ContentStore | undefined;
  try {
    store = await openStore();
    let progress: ReturnType<typeof progressReporter> | undefined;
    const counts = await exportContent(store, file, {
      onTotals: (totals) => (progress = progressReporter(io.progress, "export", totals, ["item", "asset"])),
      onRecord: (kind) => progress?.tick(kind),
    });
    progress?.finish();
    if (!toSquidex) {
      io.out(`exported ${summary(counts)} to ${file}`);
      return 0;
    }
    const [url, app, clientId, clientSecret] = positionals as [string, string, string, string];
    let sent: ReturnType<typeof progressReporter> | undefined;
    const written = await archiveToSquidex(file, { url, app, clientId, clientSecret }, {
      onTotals: (totals) => (sent = progressReporter(io.progress, "to Squidex", totals, ["item", "asset"])),
      onRecord: (kind) => sent?.tick(kind),
    });
    sent?.finish();
    io.out(`wrote ${summary(written)} to Squidex app ${app}`);
    return 0;
  } catch (error) {
    err(explain(error));
    return 1;
  } finally {
    await store?.close();
    if (temp) await fs.rm(temp, { recursive: true, force: true });
  }
}

/** `npm run content:import -- FILE`: an archive into the store, all or nothing. Returns the exit code. */
export async function contentImportCommand(argv: string[], err: (line: string) => void = console.error, io: Io = defaultIo()): Promise<number> {
  let positionals, values;
  try {
    ({ positionals, values } = parseArgs({ args: argv, options: { "from-squidex": { type: "boolean" } }, allowPositionals: true, strict: true }));
  } catch (error) {
    err(`${error instanceof Error ? error.message : error}\n${IMPORT_USAGE}`);
    return 2;
  }
  const fromSquidex = values["from-squidex"] === true;
  if (positionals.length !== (fromSquidex ? 4 : 1)) {
    err(IMPORT_USAGE);
    return 2;
  }
  let file = path.resolve(positionals[0]!);
  let temp: string | undefined;
  if (fromSquidex) {
    const [url, app, clientId, clientSecret] = positionals as [string, string, string, string];
    temp = await fs.mkdtemp(path.join(os.tmpdir(), "praxisnetz-squidex-"));
    file = path.join(temp, "squidex.ndjson.gz");
    try {
      const counts = await squidexToArchive({ url, app, clientId, clientSecret }, file);
      io.out(`read ${summary(counts)} from Squidex app ${app}`);
    } catch (error) {
      await fs.rm(temp, { recursive: true, force: true });
      err(explain(error));
      err("Nothing was imported: the store is as it was.");
      return 1;
    }
  }
  let store: ContentStore | undefined;
  try {
    store = await openStore();
    let progress: ReturnType<typeof progressReporter> | undefined;
    const counts = await importContent(store, file, {
      onTotals: (totals) => (progress = progressReporter(io.progress, "import", totals, ["item", "asset"])),
      onRecord: (kind) => progress?.tick(kind),
    });
    progress?.finish();
    io.out(`imported ${summary(counts)} from ${file}`);
    return 0;
  } catch (error) {
    err(explain(error));
    err("Nothing was imported: the store is as it was.");
    return 1;
  } finally {
    await store?.close();
    if (temp) await fs.rm(temp, { recursive: true, force: true });
  }
}
