import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { ARCHIVE_FORMAT, ARCHIVE_VERSION, ArchiveError, emptyCounts, openArchiveWriter, progressReporter, readArchive } from "./archive";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "praxisnetz-archive-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const folder = { id: "f1", parent_id: "00000000-0000-0000-0000-000000000000", folder_name: "Bilder", version: 0, created: "t", created_by: "a", last_modified: "t", last_modified_by: "a" };
const header = (counts = { ...emptyCounts(), folder: 1 }) => ({ type: "header", format: ARCHIVE_FORMAT, version: ARCHIVE_VERSION, exportedAt: "t", counts });
const end = (counts = { ...emptyCounts(), folder: 1 }) => ({ type: "end" as const, counts });

function archiveOf(lines: unknown[], name: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, gzipSync(lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n")));
  return file;
}

async function readAll(file: string) {
  const out = [];
  for await (const r of readArchive(file)) out.push(r);
  return out;
}

describe("content archives", () => {
  it("read back what was written", async () => {
    const file = path.join(dir, "round.ndjson.gz");
    const w = openArchiveWriter(file);
    await w.write(header() as never);
    await w.write({ type: "folder", row: folder });
    await w.write(end());
    await w.close();
    expect(await readAll(file)).toEqual([header(), { type: "folder", row: folder }]);
  });

  it("refuse what is not whole or not theirs, naming the fault", async () => {
    const cases: Array<[unknown[], RegExp]> = [
      [[header(), { type: "folder", row: folder }], /end line is missing/],
      [[header(), { type: "folder", row: folder }, end(), { type: "folder", row: folder }], /after the end/],
      [[header(), end()], /announces 1 folder records and holds 0/],
      [[header(), "{not json", end()], /Line 2: not JSON/],
      [[header(), { type: "user", row: {} }, end()], /Line 2: unknown record type "user"/],
      [[header(), { type: "folder", row: { ...folder, version: "1" } }, end()], /Line 2 \(folder "f1"\): field "version" is missing or not a whole number/],
      [[{ ...header(), format: "other" }], /not a praxisnetz-content archive/],
      [[header(), { type: "asset", row: {}, bytes: "" }, end()], /field "id" is missing/],
      [[], /empty/],
    ];
    for (const [i, [lines, message]] of cases.entries()) {
      const read = readAll(archiveOf(lines, `bad-${i}.gz`));
      await expect(read).rejects.toThrow(ArchiveError);
      await expect(readAll(archiveOf(lines, `bad-${i}.gz`))).rejects.toThrow(message);
    }
    await expect(readAll(path.join(dir, "missing.gz"))).rejects.toThrow(/Cannot read the archive/);
  });

  it("report progress in place on a terminal and as a few plain lines elsewhere", () => {
    const written: string[] = [];
    const plain = progressReporter({ isTTY: false, write: (s: string) => written.push(s) }, "import", { item: 3, asset: 1 }, ["item", "asset"]);
    for (let i = 0; i < 3; i++) plain.tick("item");
    plain.tick("asset");
    plain.finish();
    expect(written.length).toBeLessThanOrEqual(2);
    expect(written.at(-1)).toBe("import: items 3/3, assets 1/1\n");
    const tty: string[] = [];
    const live = progressReporter({ isTTY: true, write: (s: string) => tty.push(s) }, "export", { item: 1 }, ["item"]);
    live.tick("item");
    live.finish();
    expect(tty.every((s) => s.startsWith("\r"))).toBe(true);
    expect(tty.at(-1)).toBe("\rexport: items 1/1\n");
  });
});
