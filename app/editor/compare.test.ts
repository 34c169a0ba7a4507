import { describe, expect, it } from "vitest";
import type { Block } from "~/blocks/types";
import { compareBlocks, sameBlocks } from "./compare";

const text = (id: string, text = id): Block => ({ schemaId: "text", id, text });
const section = (id: string, blocks: Block[], extra: Record<string, unknown> = {}): Block => ({ schemaId: "section", id, blocks, ...extra });
const ids = (refs: Array<{ id: string }>) => refs.map((r) => r.id);

describe("compareBlocks", () => {
  it("finds nothing between equal versions, whatever the order of a block's keys", () => {
    const a = [text("a"), section("s", [text("b")], { layout: { cols: 2, gap: "m" } })];
    const b = [{ text: "a", id: "a", schemaId: "text" }, section("s", [text("b")], { layout: { gap: "m", cols: 2 } })];
    const c = compareBlocks(a, b);
    expect(sameBlocks(c)).toBe(true);
    expect(ids(c.unchanged)).toEqual(["a", "s", "b"]);
  });

  it("reports added and removed blocks, children of sections too", () => {
    const c = compareBlocks([text("a"), section("s", [text("b"), text("gone")])], [text("a"), text("new"), section("s", [text("b"), text("child")])]);
    expect(ids(c.added)).toEqual(["new", "child"]);
    expect(c.added[1]).toMatchObject({ parentId: "s" });
    expect(c.removed).toEqual([{ id: "gone", schemaId: "text", parentId: "s" }]);
    // An insertion moves nothing else: the others kept their order.
    expect(c.moved).toEqual([]);
  });

  it("reports a block whose order among its neighbours changed as moved, and only that one", () => {
    const c = compareBlocks([text("a"), text("b"), text("c"), text("d")], [text("a"), text("c"), text("d"), text("b")]);
    expect(ids(c.moved)).toEqual(["b"]);
    expect(ids(c.unchanged)).toEqual(["a", "c", "d"]);
  });

  it("reports a block taken into or out of a section as moved, with where it came from", () => {
    const c = compareBlocks([text("a"), section("s", [text("b")])], [section("s", [text("a")]), text("b")]);
    expect(c.moved).toEqual([
      { id: "a", schemaId: "text", parentId: "s", fromParentId: null },
      { id: "b", schemaId: "text", parentId: null, fromParentId: "s" },
    ]);
    // The section's own fields are the same; its children are compared as blocks of their own.
    expect(ids(c.unchanged)).toEqual(["s"]);
  });

  it("names the changed fields, and a block can be moved and changed at once", () => {
    const c = compareBlocks(
      [text("a"), { schemaId: "hero", id: "h", title: "Hallo", image: { id: "img1" }, active: true }, text("z")],
      [{ schemaId: "hero", id: "h", title: "Willkommen", image: { id: "img2" } }, text("z"), { ...text("a"), text: "A!" }],
    );
    expect(c.changed).toEqual([
      { id: "h", schemaId: "hero", parentId: null, fields: ["active", "image", "title"] },
      { id: "a", schemaId: "text", parentId: null, fields: ["text"] },
    ]);
    expect(ids(c.moved)).toEqual(["a"]);
    expect(ids(c.unchanged)).toEqual(["z"]);
  });

  it("reports a change of a block's kind as a changed field", () => {
    const c = compareBlocks([text("a")], [{ schemaId: "quote", id: "a", text: "a" }]);
    expect(c.changed).toEqual([{ id: "a", schemaId: "quote", parentId: null, fields: ["schemaId"] }]);
  });

  it("matches blocks without an id by their place", () => {
    const a: Block[] = [{ schemaId: "text", text: "x" }, { schemaId: "text", text: "y" }];
    const b: Block[] = [{ schemaId: "text", text: "x" }, { schemaId: "text", text: "z" }, { schemaId: "text", text: "new" }];
    const c = compareBlocks(a, b);
    expect(c.unchanged).toHaveLength(1);
    expect(c.changed.map((x) => x.fields)).toEqual([["text"]]);
    expect(c.added).toHaveLength(1);
  });

  it("compares everything against an empty page, and an empty page against anything", () => {
    const page = [text("a"), section("s", [text("b")])];
    expect(ids(compareBlocks([], page).added)).toEqual(["a", "s", "b"]);
    expect(ids(compareBlocks(page, []).removed)).toEqual(["a", "s", "b"]);
  });

  it("copes with what stored content may hold: non-objects, repeated ids", () => {
    const odd = [null, 3, "x", text("a"), text("a", "copy")] as unknown as Block[];
    const c = compareBlocks(odd, [text("a")]);
    expect(ids(c.unchanged)).toEqual(["a"]);
    // The second "a" was matched by place and is gone.
    expect(c.removed).toHaveLength(1);
  });

  it("stays fast at a few thousand blocks", () => {
    const many = Array.from({ length: 3000 }, (_, i) => text(`b${i}`));
    const reversed = [...many].reverse();
    const started = performance.now();
    const c = compareBlocks(many, reversed);
    expect(performance.now() - started).toBeLessThan(1000);
    // Reversed: one block keeps its place against the others, every other moved.
    expect(c.moved).toHaveLength(2999);
  });
});
