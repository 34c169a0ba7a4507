import { describe, expect, it } from "vitest";
import { batches, feedChannel } from "./change-feed";
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

describe("change feed channel", () => {
  it("is one plain identifier per schema: the same for the nodes of one site, another for a site in another schema", () => {
    expect(feedChannel("site_a")).toBe(feedChannel("site_a"));
    expect(feedChannel("site_a")).not.toBe(feedChannel("site_b"));
    expect(feedChannel(null)).not.toBe(feedChannel("public"));
    for (const schema of ["public", "a-b c;drop", "x".repeat(200), null]) expect(feedChannel(schema)).toMatch(/^[a-z_][a-z0-9_]{0,62}$/);
  });
});
