import fs from "node:fs";
import { pipeline, type Readable } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import { createGunzip, createGzip, type Gzip } from "node:zlib";
import type { Database } from "../db";
import { readMetadata } from "../assets";

/**
 * A content archive (docs/decisions/0035-content-transfer.md): one gzip'd stream of JSON lines.
 * The first line is the header (format, version, counts), then one record a line — schemas, asset
 * folders, items, page versions, schedules, assets with their bytes in base64 — and last the end
 * line with the same counts, so a cut-off archive is told from a whole one.
 */
export const ARCHIVE_FORMAT = "praxisnetz-content";
export const ARCHIVE_VERSION = 1;

export type Counts = Record<RecordKind, number>;
export const RECORD_KINDS = ["schema", "folder", "item", "pageVersion", "schedule", "asset"] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];

type Row<T extends keyof Database> = Database[T];
/** JSON columns travel as JSON values, not as the text SQLite keeps them in. */
export type ItemRow = Omit<Row<"contents">, "data" | "published_data"> & { data: unknown; published_data: unknown };
/** `id` is the entry's number in the editor's history (kept when the target has it free). */
export type PageVersionRow = Omit<Row<"page_history">, "id" | "blocks" | "title"> & { id: number; blocks: unknown; title: unknown };
export type ScheduleRow = Pick<Row<"content_schedules">, "content_id" | "schema_name" | "job_id" | "status" | "due_time" | "scheduled_by" | "principal" | "created">;

export type ArchiveRecord =
  | { type: "schema"; row: Row<"schemas"> }
  | { type: "folder"; row: Row<"asset_folders"> }
  /** `slug`: the item's stored address (pages, practitioners), kept as it was. */
  | { type: "item"; row: ItemRow; slug?: string }
  | { type: "pageVersion"; row: PageVersionRow }
  | { type: "schedule"; row: ScheduleRow }
  | { type: "asset"; row: Row<"assets">; bytes: string };

export interface Header {
  type: "header";
  format: typeof ARCHIVE_FORMAT;
  version: number;
  exportedAt: string;
  counts: Counts;
}

/** What is wrong with an archive: said to the person running the import, without a stack trace. */
export class ArchiveError extends Error {}

export const emptyCounts = (): Counts => Object.fromEntries(RECORD_KINDS.map((k) => [k, 0])) as Counts;

// ---- writing ---------------------------------------------------------------------------------

export interface ArchiveWriter {
  write(record: Header | ArchiveRecord | { type: "end"; counts: Counts }): Promise<void>;
  close(): Promise<void>;
  abort(): Promise<void>;
}

/** Writes records to `file` as gzip'd JSON lines, waiting when the disk is slower than the reader. */
/**
 * Writes one archive file: `fill` writes the header and the records and answers what it wrote; the
 * end line (which tells a whole file from a cut-off one) follows. A failure removes the half-written file.
 */
export async function writeArchive(file: string, fill: (writer: ArchiveWriter) => Promise<Counts>): Promise<Counts> {
  const writer = openArchiveWriter(file);
  try {
    const counts = await fill(writer);
    await writer.write({ type: "end", counts });
    await writer.close();
    return counts;
  } catch (error) {
    await writer.abort();
    throw error;
  }
}

export function openArchiveWriter(file: string): ArchiveWriter {
  const out = fs.createWriteStream(file, { mode: 0o600 });
  const gzip: Gzip = createGzip();
  gzip.pipe(out);
  let failed: Error | undefined;
  const fail = (error: Error) => (failed ??= error);
  out.on("error", fail);
  gzip.on("error", fail);
  return {
    async write(record) {
      if (failed) throw failed;
      if (!gzip.write(`${JSON.stringify(record)}\n`)) await settled(gzip, "drain", out);
      if (failed) throw failed;
    },
    async close() {
      gzip.end();
      await settled(out, "finish", out);
      if (failed) throw failed;
    },
    async abort() {
      gzip.destroy();
      out.destroy();
      await fs.promises.rm(file, { force: true });
    },
  };
}

/** Resolves at `event` on `emitter` or an error on `errors`, leaving no listener behind. */
function settled(emitter: NodeJS.EventEmitter, event: string, errors: NodeJS.EventEmitter): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      emitter.off(event, done);
      errors.off("error", done);
      resolve();
    };
    emitter.on(event, done);
    errors.on("error", done);
  });
}

// ---- reading ---------------------------------------------------------------------------------

/**
 * The archive's header and its records, each checked as it is read; then the end line's counts
 * checked against what came. Any fault (not gzip, cut off, a broken line, a missing field) is an
 * ArchiveError naming the line.
 */
export async function* readArchive(file: string): AsyncGenerator<Header | ArchiveRecord> {
  let input: fs.ReadStream;
  try {
    await fs.promises.access(file, fs.constants.R_OK);
    input = fs.createReadStream(file);
  } catch {
    throw new ArchiveError(`Cannot read the archive "${file}".`);
  }
  // pipeline: a fault of either stream ends the iteration below with that error.
  const source = pipeline(input, createGunzip(), () => {});
  let streamError: Error | undefined;
  let n = 0;
  let header: Header | undefined;
  const seen = emptyCounts();
  let ended = false;
  try {
    for await (const line of splitLines(source, (e) => (streamError = e))) {
      n++;
      if (ended) throw new ArchiveError(`Line ${n}: content after the end of the archive.`);
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        throw new ArchiveError(`Line ${n}: not JSON (the archive is damaged).`);
      }
      if (n === 1) {
        header = checkHeader(value);
        yield header;
        continue;
      }
      if (isObject(value) && value.type === "end") {
        const counts = checkCounts(value.counts, `Line ${n}`);
        for (const kind of RECORD_KINDS) {
          if (counts[kind] !== seen[kind] || header!.counts[kind] !== seen[kind])
            throw new ArchiveError(`Line ${n}: the archive announces ${header!.counts[kind]} ${kind} records and holds ${seen[kind]}.`);
        }
        ended = true;
        continue;
      }
      const record = checkRecord(value, n);
      seen[record.type]++;
      yield record;
    }
  } catch (error) {
    if (error instanceof ArchiveError) throw error;
    throw new ArchiveError(`The archive cannot be read: ${error instanceof Error ? error.message : String(error)}.`);
  }
  if (streamError) throw new ArchiveError(streamError.message.includes("unexpected end") ? "The archive is cut off (it ends in the middle)." : `The archive is not a gzip'd content archive (${streamError.message}).`);
  if (!header) throw new ArchiveError("The archive is empty.");
  if (!ended) throw new ArchiveError("The archive is cut off: its end line is missing.");
}

/** The stream's text lines; a stream fault is handed to `onError` and ends the lines. */
async function* splitLines(stream: Readable, onError: (error: Error) => void): AsyncGenerator<string> {
  const decoder = new StringDecoder("utf8");
  let rest = "";
  try {
    for await (const chunk of stream) {
      rest += decoder.write(chunk as Buffer);
      let at: number;
      while ((at = rest.indexOf("\n")) >= 0) {
        yield rest.slice(0, at);
        rest = rest.slice(at + 1);
      }
    }
  } catch (error) {
    onError(error as Error);
    return;
  }
  rest += decoder.end();
  if (rest) yield rest;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function checkHeader(value: unknown): Header {
  if (!isObject(value) || value.type !== "header" || value.format !== ARCHIVE_FORMAT)
    throw new ArchiveError(`This is not a ${ARCHIVE_FORMAT} archive (its first line is no header).`);
  if (value.version !== ARCHIVE_VERSION)
    throw new ArchiveError(`The archive has format version ${JSON.stringify(value.version)}; this app reads version ${ARCHIVE_VERSION}.`);
  return { type: "header", format: ARCHIVE_FORMAT, version: ARCHIVE_VERSION, exportedAt: String(value.exportedAt ?? ""), counts: checkCounts(value.counts, "Line 1") };
}

function checkCounts(value: unknown, where: string): Counts {
  if (!isObject(value)) throw new ArchiveError(`${where}: counts are missing.`);
  const counts = emptyCounts();
  for (const kind of RECORD_KINDS) {
    const n = value[kind];
    if (typeof n !== "number" || !Number.isSafeInteger(n) || n < 0) throw new ArchiveError(`${where}: the count of ${kind} records is missing or not a number.`);
    counts[kind] = n;
  }
  return counts;
}

type FieldKind = "string" | "int" | "string?" | "int?" | "json";
const FIELDS: Record<RecordKind, Record<string, FieldKind>> = {
  schema: { id: "string", name: "string", type: "string", is_published: "int", definition: "string", version: "int", created: "string", created_by: "string", last_modified: "string", last_modified_by: "string" },
  folder: { id: "string", parent_id: "string", folder_name: "string", version: "int", created: "string", created_by: "string", last_modified: "string", last_modified_by: "string" },
  item: {
    id: "string",
    schema_name: "string",
    status: "string",
    new_status: "string?",
    version: "int",
    data: "json",
    published_data: "json",
    published_version: "int?",
    published_last_modified: "string?",
    published_last_modified_by: "string?",
    created: "string",
    created_by: "string",
    last_modified: "string",
    last_modified_by: "string",
  },
  pageVersion: { id: "int", page_id: "string", version: "int", kind: "string", blocks: "json", title: "json", by_actor: "string", at: "string" },
  schedule: { content_id: "string", schema_name: "string", job_id: "string", status: "string", due_time: "string", scheduled_by: "string", principal: "string", created: "string" },
  asset: {
    id: "string",
    file_name: "string",
    slug: "string",
    mime_type: "string",
    file_size: "int",
    file_hash: "string",
    file_version: "int",
    type: "string",
    pixel_width: "int?",
    pixel_height: "int?",
    tags: "string",
    parent_id: "string",
    version: "int",
    created: "string",
    created_by: "string",
    last_modified: "string",
    last_modified_by: "string",
  },
};

const DESCRIBED: Record<FieldKind, string> = { string: "text", int: "a whole number", "string?": "text or null", "int?": "a whole number or null", json: "a JSON value" };

/** A record with exactly the fields its table needs, of the right types; anything else is refused. */
function checkRecord(value: unknown, n: number): ArchiveRecord {
  if (!isObject(value) || typeof value.type !== "string" || !(RECORD_KINDS as readonly string[]).includes(value.type))
    throw new ArchiveError(`Line ${n}: unknown record type ${JSON.stringify(isObject(value) ? value.type : value)?.slice(0, 40)}.`);
  const kind = value.type as RecordKind;
  if (!isObject(value.row)) throw new ArchiveError(`Line ${n} (${kind}): the row is missing.`);
  const row: Record<string, unknown> = {};
  for (const [field, type] of Object.entries(FIELDS[kind])) {
    const v = value.row[field];
    const ok =
      type === "json" ? v !== undefined
      : type === "string" ? typeof v === "string"
      : type === "int" ? Number.isSafeInteger(v)
      : type === "string?" ? v === null || typeof v === "string"
      : v === null || Number.isSafeInteger(v);
    if (!ok) throw new ArchiveError(`Line ${n} (${kind} ${JSON.stringify(value.row.id ?? value.row.page_id ?? value.row.content_id ?? "")}): field "${field}" is missing or not ${DESCRIBED[type]}.`);
    row[field] = v;
  }
  if (kind === "asset") {
    // Added with migration 0017: archives made before have neither (then the defaults).
    const { metadata, is_protected: isProtected } = value.row;
    if (metadata !== undefined && typeof metadata !== "string") throw new ArchiveError(`Line ${n} (asset ${JSON.stringify(row.id)}): field "metadata" is not text.`);
    if (isProtected !== undefined && isProtected !== 0 && isProtected !== 1) throw new ArchiveError(`Line ${n} (asset ${JSON.stringify(row.id)}): field "is_protected" is not 0 or 1.`);
    row.metadata = JSON.stringify(readMetadata(metadata ?? "{}"));
    row.is_protected = isProtected ?? 0;
  }
  if (kind === "item" && row.data === null) throw new ArchiveError(`Line ${n} (item ${JSON.stringify(row.id)}): field "data" is null.`);
  if (kind === "item" && value.slug !== undefined && typeof value.slug !== "string") throw new ArchiveError(`Line ${n} (item ${JSON.stringify(row.id)}): "slug" is not a string.`);
  if (kind === "asset") {
    if (typeof value.bytes !== "string" || !/^[A-Za-z0-9+/]*={0,2}$/.test(value.bytes)) throw new ArchiveError(`Line ${n} (asset ${JSON.stringify(row.id)}): its bytes are missing or not base64.`);
    if (Buffer.byteLength(value.bytes, "base64") !== row.file_size) throw new ArchiveError(`Line ${n} (asset ${JSON.stringify(row.id)}): its bytes are not ${row.file_size} long.`);
    return { type: "asset", row: row as Row<"assets">, bytes: value.bytes };
  }
  if (kind === "item") return { type: "item", row: row as ItemRow, ...(typeof value.slug === "string" ? { slug: value.slug } : {}) };
  return { type: kind, row } as ArchiveRecord;
}

// ---- progress --------------------------------------------------------------------------------

/**
 * "items 120/4000, assets 3/40": rewritten in place on a terminal, one plain line now and then
 * (every 2 s at most, and at the end) otherwise, so a log file gets a few lines, not thousands.
 */
export function progressReporter(stream: NodeJS.WriteStream | { isTTY?: boolean; write(s: string): unknown }, label: string, totals: Partial<Counts>, kinds: readonly RecordKind[]) {
  const done = emptyCounts();
  let last = 0;
  const line = () => `${label}: ${kinds.map((k) => `${k === "item" ? "items" : k === "asset" ? "assets" : `${k}s`} ${done[k]}/${totals[k] ?? 0}`).join(", ")}`;
  return {
    tick(kind: RecordKind) {
      done[kind]++;
      const now = Date.now();
      if (stream.isTTY) {
        if (now - last >= 100) {
          last = now;
          stream.write(`\r${line()}`);
        }
      } else if (now - last >= 2000) {
        last = now;
        stream.write(`${line()}\n`);
      }
    },
    finish() {
      stream.write(stream.isTTY ? `\r${line()}\n` : `${line()}\n`);
    },
  };
}
