import fsp from "node:fs/promises";
import { sql } from "kysely";
import { readJsonColumn } from "../db";
import { indexSpec } from "../field-index";
import type { ContentStore } from "../store";
import { ARCHIVE_FORMAT, ARCHIVE_VERSION, ArchiveError, emptyCounts, writeArchive, type ArchiveRecord, type Counts, type RecordKind } from "./archive";

const PAGE = 500;

/**
 * Writes everything the content service holds — schemas, asset folders, items (every language, both
 * the current and the published data, status, stamps), the pages' kept versions, pending scheduled
 * status changes and assets with their bytes — to `file` (archive.ts). Read in one read-only
 * transaction: a store in use gives a consistent archive. Returns what was written.
 */
export async function exportContent(store: ContentStore, file: string, opts: { onRecord?: (kind: RecordKind, totals: Counts) => void; onTotals?: (totals: Counts) => void } = {}): Promise<Counts> {
  const schemaList = await store.listSchemas();
  return writeArchive(file, (writer) =>
    store.db
      .transaction()
      .setAccessMode("read only")
      .setIsolationLevel("repeatable read")
      .execute(async (trx) => {
        const count = async (table: "schemas" | "asset_folders" | "contents" | "page_history" | "content_schedules" | "assets") =>
          Number((await trx.selectFrom(table).select((eb) => eb.fn.countAll<number | string>().as("n")).executeTakeFirstOrThrow()).n);
        const totals: Counts = {
          schema: await count("schemas"),
          folder: await count("asset_folders"),
          item: await count("contents"),
          pageVersion: await count("page_history"),
          schedule: await count("content_schedules"),
          asset: await count("assets"),
        };
        opts.onTotals?.(totals);
        await writer.write({ type: "header", format: ARCHIVE_FORMAT, version: ARCHIVE_VERSION, exportedAt: new Date().toISOString(), counts: totals });
        const written = emptyCounts();
        const put = async (record: ArchiveRecord) => {
          await writer.write(record);
          written[record.type]++;
          opts.onRecord?.(record.type, totals);
        };

        const schemas = await trx.selectFrom("schemas").selectAll().orderBy("name").execute();
        for (const row of schemas) await put({ type: "schema", row: { ...row, is_published: Number(row.is_published), version: Number(row.version) } });
        // Parents before children, so an import could insert them in order.
        const folders = await trx.selectFrom("asset_folders").selectAll().orderBy("created").orderBy("id").execute();
        for (const row of folders) await put({ type: "folder", row: { ...row, version: Number(row.version) } });

        // Slugs live in the schemas' side tables (field-index.ts): read beside the items.
        const slugs = new Map<string, string>();
        const indexTables = new Map((await trx.selectFrom("content_indexes").select(["schema_name", "table_name"]).execute()).map((r) => [r.schema_name, r.table_name]));
        for (const schema of schemaList) {
          const table = indexTables.get(schema.name);
          if (!indexSpec(schema)?.slugField || !table) continue;
          const rows = await sql<{ id: string; slug: string }>`select id, slug from ${sql.table(table)}`.execute(trx);
          for (const r of rows.rows) slugs.set(r.id, r.slug);
        }
        let after = "";
        for (;;) {
          const rows = await trx.selectFrom("contents").selectAll().where("id", ">", after).orderBy("id").limit(PAGE).execute();
          for (const row of rows) {
            const slug = slugs.get(row.id);
            await put({
              type: "item",
              row: {
                ...row,
                version: Number(row.version),
                published_version: row.published_version === null ? null : Number(row.published_version),
                data: readJsonColumn(row.data),
                published_data: row.published_data === null ? null : readJsonColumn(row.published_data),
              },
              ...(slug !== undefined ? { slug } : {}),
            });
          }
          if (rows.length < PAGE) break;
          after = rows[rows.length - 1]!.id;
        }

        let afterId = 0;
        for (;;) {
          const rows = await trx.selectFrom("page_history").selectAll().where("id", ">", afterId).orderBy("id").limit(PAGE).execute();
          for (const row of rows) await put({ type: "pageVersion", row: { ...row, id: Number(row.id), version: Number(row.version), blocks: readJsonColumn(row.blocks), title: readJsonColumn(row.title) } });
          if (rows.length < PAGE) break;
          afterId = Number(rows[rows.length - 1]!.id);
        }

        const schedules = await trx.selectFrom("content_schedules").select(["content_id", "schema_name", "job_id", "status", "due_time", "scheduled_by", "principal", "created"]).orderBy("content_id").execute();
        for (const row of schedules) await put({ type: "schedule", row });

        after = "";
        for (;;) {
          const rows = await trx.selectFrom("assets").selectAll().where("id", ">", after).orderBy("id").limit(50).execute();
          for (const row of rows) {
            const asset = { ...row, file_size: Number(row.file_size), file_version: Number(row.file_version), version: Number(row.version) };
            const bytes = await fsp.readFile(store.assets.filePath({ id: row.id, fileVersion: asset.file_version })).catch(() => {
              throw new ArchiveError(`Asset "${row.id}" (${row.file_name}) has no file in ${store.assets.dir}: the store is incomplete.`);
            });
            await put({ type: "asset", row: { ...asset, file_size: bytes.length }, bytes: bytes.toString("base64") });
          }
          if (rows.length < 50) break;
          after = rows[rows.length - 1]!.id;
        }
        return written;
      }),
  );
}
