import { describe, expect, it } from "vitest";
import { batches } from "./change-feed";
import type { ContentChange } from "./types";

describe("change feed batches", () => {
  it("keep every change in order, each notification under PostgreSQL's 8 000 bytes", () => {
    const changes: ContentChange[] = Array.from({ length: 500 }, (_, i) => ({ kind: "content", schemaName: "gm-appointments", id: `${"x".repeat(90)}-${i}` }));
    const payloads = batches(changes, "node-1");
    expect(payloads.length).toBeGreaterThan(1);
    for (const p of payloads) expect(Buffer.byteLength(p)).toBeLessThan(8000);
    const back = payloads.flatMap((p) => (JSON.parse(p) as { from: string; changes: ContentChange[] }).changes);
    expect(back).toEqual(changes);
    expect(batches([], "node-1")).toEqual([]);
    expect(JSON.parse(batches([{ kind: "schema", id: "gm-pages" }], "n")[0]!)).toEqual({ from: "n", changes: [{ kind: "schema", id: "gm-pages" }] });
  });
});
