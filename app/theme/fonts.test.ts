/**
 * The served fonts are Fontsource's latin subsets (U+0000-00FF and a few more); German needs the
 * umlauts and ß from that range plus „ “ – €. This reads each WOFF2's character map to make sure.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { brotliDecompressSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { fontStyleItems } from "~/content/seed/theme";

const PUBLIC = path.resolve(import.meta.dirname, "../../public");
const GERMAN = "AZaz09ÄÖÜäöüß„“‚‘–—€§°·…";

function readBase128(buf: Buffer, pos: { at: number }): number {
  let value = 0;
  for (let i = 0; i < 5; i++) {
    const byte = buf[pos.at++]!;
    value = value * 128 + (byte & 0x7f);
    if (!(byte & 0x80)) return value;
  }
  throw new Error("bad UIntBase128");
}

/** The raw `cmap` table of a WOFF2 file (it is never transformed, only brotli-compressed with the rest). */
function woff2Cmap(file: Buffer): Buffer {
  if (file.toString("latin1", 0, 4) !== "wOF2") throw new Error("not WOFF2");
  const numTables = file.readUInt16BE(12);
  const pos = { at: 48 };
  let offset = 0;
  let cmap: { offset: number; length: number } | undefined;
  for (let i = 0; i < numTables; i++) {
    const flags = file[pos.at++]!;
    const tagIndex = flags & 0x3f;
    if (tagIndex === 63) pos.at += 4;
    const origLength = readBase128(file, pos);
    const version = flags >> 6;
    const transformed = tagIndex === 10 || tagIndex === 11 ? version === 0 : version !== 0; // glyf/loca invert it
    const length = transformed ? readBase128(file, pos) : origLength;
    if (tagIndex === 0) cmap = { offset, length };
    offset += length;
  }
  if (!cmap) throw new Error("no cmap");
  const tables = brotliDecompressSync(file.subarray(pos.at, pos.at + file.readUInt32BE(20)));
  return tables.subarray(cmap.offset, cmap.offset + cmap.length);
}

/** Code points with a glyph, from the Unicode subtable (format 4 or 12). */
function hasGlyph(cmap: Buffer, codePoint: number): boolean {
  for (let i = 0; i < cmap.readUInt16BE(2); i++) {
    const sub = cmap.readUInt32BE(4 + i * 8 + 4);
    const format = cmap.readUInt16BE(sub);
    if (format === 12) {
      for (let g = 0; g < cmap.readUInt32BE(sub + 12); g++) {
        const at = sub + 16 + g * 12;
        if (codePoint >= cmap.readUInt32BE(at) && codePoint <= cmap.readUInt32BE(at + 4)) return true;
      }
    } else if (format === 4) {
      const segs = cmap.readUInt16BE(sub + 6) / 2;
      for (let s = 0; s < segs; s++) {
        const end = cmap.readUInt16BE(sub + 14 + s * 2);
        const start = cmap.readUInt16BE(sub + 16 + segs * 2 + s * 2);
        if (codePoint < start || codePoint > end) continue;
        const delta = cmap.readUInt16BE(sub + 16 + segs * 4 + s * 2);
        const rangeAt = sub + 16 + segs * 6 + s * 2;
        const rangeOffset = cmap.readUInt16BE(rangeAt);
        const glyph = rangeOffset === 0 ? codePoint + delta : cmap.readUInt16BE(rangeAt + rangeOffset + (codePoint - start) * 2);
        if ((glyph & 0xffff) !== 0) return true;
      }
    }
  }
  return false;
}

const urls = fontStyleItems.flatMap((item) => (item.data.font as { iv: Array<{ url: string }> }).iv.map((f) => f.url));

describe("served fonts", () => {
  it.each(urls)("%s exists and covers German text", (url) => {
    const cmap = woff2Cmap(readFileSync(path.join(PUBLIC, url)));
    const missing = [...GERMAN].filter((ch) => !hasGlyph(cmap, ch.codePointAt(0)!));
    expect(missing).toEqual([]);
    expect(hasGlyph(cmap, 0x0151)).toBe(false); // ő is latin-ext: proves the cmap is read and this is the latin subset
  });

  it("ships the OFL licence of each family", () => {
    for (const family of ["source-sans-3", "literata"]) {
      expect(readFileSync(path.join(PUBLIC, `fonts/LICENSE-${family}.txt`), "utf8")).toContain("SIL Open Font License");
    }
  });
});
