import { describe, expect, it } from "vitest";
import type { Block } from "~/blocks/types";
import {
  HISTORY_LIMIT,
  ROOT,
  blocksFromDoc,
  canRedo,
  canUndo,
  childrenOf,
  cloneWithNewIds,
  createState,
  currentDoc,
  docFromBlocks,
  documentOrder,
  isDescendant,
  pathOf,
  reduce,
  type EditorAction,
  type EditorState,
  type ModelContext,
} from "./model";

/**
 * The editor's actions replayed on a small page with sections nested three deep: what each does to
 * the blocks, the selection and the undo history, and that whatever an action leaves alone keeps its
 * object (the React layer's per-block selectors depend on it).
 */

function context(): ModelContext {
  let n = 0;
  return { isContainer: (schemaId) => schemaId === "block-section", newId: () => `n${++n}` };
}

const text = (id: string, extra: Record<string, unknown> = {}): Block => ({ schemaId: "block-richtext", id, text: `text ${id}`, ...extra });
const section = (id: string, blocks: Block[]): Block => ({ schemaId: "block-section", id, heading: `heading ${id}`, blocks });

/** ROOT: a, s1 [x, y], b, s2 [s3 [z]], c */
const page = (): Block[] => [text("a"), section("s1", [text("x"), text("y")]), text("b"), section("s2", [section("s3", [text("z")])]), text("c")];

function setup(de: Block[] = page(), en: Block[] = []) {
  const ctx = context();
  let state = createState({ de, en }, "de", ctx);
  const run = (...actions: EditorAction[]) => {
    for (const action of actions) state = reduce(state, action, ctx);
    return state;
  };
  return { ctx, run, get state() { return state; }, set state(s: EditorState) { state = s; } };
}

const kids = (state: EditorState, container = ROOT) => [...childrenOf(currentDoc(state), container)];

describe("docFromBlocks and blocksFromDoc", () => {
  it("round-trips a page with nested containers losslessly", () => {
    const blocks = page();
    blocks[0]!.items = [{ label: "one", nested: { deep: true } }];
    const doc = docFromBlocks(blocks, context());
    expect(blocksFromDoc(doc)).toEqual(blocks);
    expect(childrenOf(doc, ROOT)).toEqual(["a", "s1", "b", "s2", "c"]);
    expect(childrenOf(doc, "s3")).toEqual(["z"]);
    expect(doc.parent).toEqual({ a: ROOT, s1: ROOT, x: "s1", y: "s1", b: ROOT, s2: ROOT, s3: "s2", z: "s3", c: ROOT });
    expect(doc.blocks.s1).toEqual({ id: "s1", schemaId: "block-section", fields: { heading: "heading s1" } });
    expect(blocksFromDoc(doc, "s2")).toEqual([section("s3", [text("z")])]);
  });

  it("gives blocks without an id or with a taken one a new id, and leaves out what is no block", () => {
    const doc = docFromBlocks(
      [{ schemaId: "block-richtext", id: "n1" }, { schemaId: "block-richtext" }, null, 7, "x", { schemaId: "block-richtext", id: "n1" }, { noSchema: true }, section("s", [{ schemaId: "block-richtext", id: "s" }])] as unknown as Block[],
      context(),
    );
    const ids = childrenOf(doc, ROOT);
    expect(ids).toHaveLength(4);
    expect(ids[0]).toBe("n1");
    expect(new Set(Object.keys(doc.blocks)).size).toBe(5);
    expect(ids[1]).not.toBe("n1");
    expect(ids[2]).not.toBe("n1");
    expect(childrenOf(doc, "s")).toHaveLength(1);
    expect(childrenOf(doc, "s")[0]).not.toBe("s");
  });

  it("keeps a `blocks` field of a block that is no container as a field, and gives a container without one an empty list", () => {
    const doc = docFromBlocks([{ schemaId: "block-richtext", id: "r", blocks: ["data"] }, { schemaId: "block-section", id: "s" }], context());
    expect(doc.blocks.r!.fields).toEqual({ blocks: ["data"] });
    expect(childrenOf(doc, "r")).toEqual([]);
    expect(doc.children.s).toEqual([]);
    expect(blocksFromDoc(doc)).toEqual([{ schemaId: "block-richtext", id: "r", blocks: ["data"] }, { schemaId: "block-section", id: "s", blocks: [] }]);
  });

  it("cloneWithNewIds gives every block and child a new id and copies the data", () => {
    const blocks = page();
    blocks[0]!.items = [{ label: "one" }];
    const clone = cloneWithNewIds(blocks, context());
    const ids = (list: Block[]): string[] => list.flatMap((b) => [b.id!, ...(Array.isArray(b.blocks) ? ids(b.blocks as Block[]) : [])]);
    expect(ids(clone)).toEqual(["n1", "n2", "n3", "n4", "n5", "n6", "n7", "n8", "n9"]);
    const strip = (list: Block[]): unknown => list.map(({ id: _id, blocks: inner, ...rest }) => (Array.isArray(inner) ? { ...rest, blocks: strip(inner as Block[]) } : rest));
    expect(strip(clone)).toEqual(strip(blocks));
    expect(clone[0]!.items).not.toBe(blocks[0]!.items);
  });
});

describe("helpers", () => {
  const doc = docFromBlocks(page(), context());
  it("pathOf, isDescendant, documentOrder, childrenOf", () => {
    expect(pathOf(doc, "z")).toEqual(["s2", "s3"]);
    expect(pathOf(doc, "a")).toEqual([]);
    expect(pathOf(doc, "nope")).toEqual([]);
    expect(isDescendant(doc, "z", "s2")).toBe(true);
    expect(isDescendant(doc, "z", ROOT)).toBe(true);
    expect(isDescendant(doc, "s2", "z")).toBe(false);
    expect(isDescendant(doc, "s2", "s2")).toBe(false);
    expect(isDescendant(doc, "x", "s2")).toBe(false);
    expect(documentOrder(doc, ["c", "z", "x", "s1", "nope", "c", "a", "s3"])).toEqual(["a", "s1", "x", "s3", "z", "c"]);
    expect(childrenOf(doc, "a")).toEqual([]);
    expect(childrenOf(doc, "constructor")).toEqual([]);
  });
});

describe("insert and paste", () => {
  it("inserts at the start, in the middle, at the end (clamped) and into a nested container, always with fresh ids", () => {
    const t = setup();
    t.run({ type: "insert", parent: ROOT, index: 0, blocks: [text("a")] });
    expect(kids(t.state)).toEqual(["n1", "a", "s1", "b", "s2", "c"]);
    expect(t.state.active).toBe("n1");
    expect(t.state.selected).toEqual(["n1"]);
    t.run({ type: "insert", parent: ROOT, index: 3, blocks: [text("q"), text("r")] });
    expect(kids(t.state)).toEqual(["n1", "a", "s1", "n2", "n3", "b", "s2", "c"]);
    expect(t.state.active).toBe("n2");
    t.run({ type: "insert", parent: ROOT, index: 99, blocks: [text("q")] });
    expect(kids(t.state).at(-1)).toBe("n4");
    t.run({ type: "insert", parent: "s3", index: 0, blocks: [section("new", [text("inner"), section("deeper", [text("deepest")])])] });
    expect(kids(t.state, "s3")).toEqual(["n5", "z"]);
    expect(kids(t.state, "n5")).toEqual(["n6", "n7"]);
    expect(kids(t.state, "n7")).toEqual(["n8"]);
    expect(currentDoc(t.state).parent.n8).toBe("n7");
    expect(pathOf(currentDoc(t.state), "n8")).toEqual(["s2", "s3", "n5", "n7"]);
    expect(t.state.selected).toEqual(["n5"]);
    expect(blocksFromDoc(currentDoc(t.state), "s3")[0]).toEqual({
      schemaId: "block-section", id: "n5", heading: "heading new",
      blocks: [text("n6", { text: "text inner" }), { schemaId: "block-section", id: "n7", heading: "heading deeper", blocks: [text("n8", { text: "text deepest" })] }],
    });
    expect(t.state.past.map((e) => e.label)).toEqual(["insert", "insert", "insert", "insert"]);
  });

  it("refuses a parent that is no container, an unknown parent, a bad index and nothing to insert", () => {
    const t = setup();
    const before = t.state;
    for (const action of [
      { type: "insert", parent: "a", index: 0, blocks: [text("q")] },
      { type: "insert", parent: "nope", index: 0, blocks: [text("q")] },
      { type: "insert", parent: ROOT, index: Number.NaN, blocks: [text("q")] },
      { type: "insert", parent: ROOT, index: 0, blocks: [] },
      { type: "paste", parent: ROOT, index: 0, blocks: [null, 3] as unknown as Block[] },
    ] satisfies EditorAction[]) {
      expect(t.run(action)).toBe(before);
    }
  });

  it("paste gives pasted blocks and their children new ids even when they collide, and leaves the clipboard's objects alone", () => {
    const t = setup();
    const clipboard = [section("s1", [text("x", { items: [{ a: 1 }] })])];
    const snapshot = structuredClone(clipboard);
    t.run({ type: "paste", parent: "s2", index: 1, blocks: clipboard }, { type: "paste", parent: "s2", index: 2, blocks: clipboard });
    expect(kids(t.state, "s2")).toEqual(["s3", "n1", "n3"]);
    expect(kids(t.state, "n1")).toEqual(["n2"]);
    expect(kids(t.state, "n3")).toEqual(["n4"]);
    expect(kids(t.state, "s1")).toEqual(["x", "y"]);
    const doc = currentDoc(t.state);
    expect(doc.blocks.n2!.fields.items).toEqual([{ a: 1 }]);
    expect(doc.blocks.n2!.fields.items).not.toBe(doc.blocks.n4!.fields.items);
    expect(doc.blocks.n2!.fields.items).not.toBe((clipboard[0]!.blocks as Block[])[0]!.items);
    expect(clipboard).toEqual(snapshot);
    expect(t.state.past.map((e) => e.label)).toEqual(["paste", "paste"]);
    expect(t.state.selected).toEqual(["n3"]);
  });
});

describe("move", () => {
  it("counts the index in the target list before the moved blocks leave it", () => {
    const t = setup();
    t.run({ type: "move", ids: ["a"], parent: ROOT, index: 3 });
    expect(kids(t.state)).toEqual(["s1", "b", "a", "s2", "c"]);
    t.run({ type: "move", ids: ["c"], parent: ROOT, index: 0 });
    expect(kids(t.state)).toEqual(["c", "s1", "b", "a", "s2"]);
    t.run({ type: "move", ids: ["c"], parent: ROOT, index: 5 });
    expect(kids(t.state)).toEqual(["s1", "b", "a", "s2", "c"]);
  });

  it("moves into, out of and between containers at any depth, updating parents", () => {
    const t = setup();
    t.run({ type: "move", ids: ["a"], parent: "s1", index: 1 });
    expect(kids(t.state)).toEqual(["s1", "b", "s2", "c"]);
    expect(kids(t.state, "s1")).toEqual(["x", "a", "y"]);
    expect(currentDoc(t.state).parent.a).toBe("s1");
    t.run({ type: "move", ids: ["x"], parent: ROOT, index: 0 });
    expect(kids(t.state)).toEqual(["x", "s1", "b", "s2", "c"]);
    expect(kids(t.state, "s1")).toEqual(["a", "y"]);
    expect(currentDoc(t.state).parent.x).toBe(ROOT);
    t.run({ type: "move", ids: ["y"], parent: "s3", index: 1 });
    expect(kids(t.state, "s1")).toEqual(["a"]);
    expect(kids(t.state, "s3")).toEqual(["z", "y"]);
    expect(pathOf(currentDoc(t.state), "y")).toEqual(["s2", "s3"]);
    t.run({ type: "move", ids: ["s3"], parent: "s1", index: 0 });
    expect(kids(t.state, "s2")).toEqual([]);
    expect(kids(t.state, "s1")).toEqual(["s3", "a"]);
    expect(pathOf(currentDoc(t.state), "z")).toEqual(["s1", "s3"]);
    expect(blocksFromDoc(currentDoc(t.state))).toEqual([
      text("x"),
      section("s1", [section("s3", [text("z"), text("y")]), text("a")]),
      text("b"),
      section("s2", []),
      text("c"),
    ]);
  });

  it("refuses moving into itself, a descendant, a block that is no container or an unknown parent, and to where it already is", () => {
    const t = setup();
    const before = t.state;
    for (const action of [
      { type: "move", ids: ["s2"], parent: "s2", index: 0 },
      { type: "move", ids: ["s2"], parent: "s3", index: 0 },
      { type: "move", ids: ["a", "s2"], parent: "s3", index: 0 },
      { type: "move", ids: ["a"], parent: "b", index: 0 },
      { type: "move", ids: ["a"], parent: "z", index: 0 },
      { type: "move", ids: ["a"], parent: "nope", index: 0 },
      { type: "move", ids: ["nope"], parent: ROOT, index: 0 },
      { type: "move", ids: [], parent: ROOT, index: 0 },
      { type: "move", ids: ["a"], parent: ROOT, index: 0 },
      { type: "move", ids: ["a"], parent: ROOT, index: 1 },
      { type: "move", ids: ["x", "y"], parent: "s1", index: 2 },
    ] satisfies EditorAction[]) {
      expect(t.run(action)).toBe(before);
    }
    expect(t.state.past).toHaveLength(0);
  });

  it("moves a multi-selection in document order whatever order the ids come in, a container with its children", () => {
    const t = setup();
    t.run({ type: "move", ids: ["c", "y", "a"], parent: "s3", index: 0 });
    expect(kids(t.state, "s3")).toEqual(["a", "y", "c", "z"]);
    expect(kids(t.state)).toEqual(["s1", "b", "s2"]);
    expect(kids(t.state, "s1")).toEqual(["x"]);
    t.run({ type: "move", ids: ["x", "s1", "z"], parent: ROOT, index: 3 });
    // s1 brings x along; z leaves s3.
    expect(kids(t.state)).toEqual(["b", "s2", "s1", "z"]);
    expect(kids(t.state, "s1")).toEqual(["x"]);
    expect(kids(t.state, "s3")).toEqual(["a", "y", "c"]);
  });

  it("keeps the selection in document order after a move", () => {
    const t = setup();
    t.run({ type: "select", id: "a" }, { type: "select", id: "c", mode: "toggle" });
    expect(t.state.selected).toEqual(["a", "c"]);
    t.run({ type: "move", ids: ["c"], parent: ROOT, index: 0 });
    expect(t.state.selected).toEqual(["c", "a"]);
    expect(t.state.active).toBe("c");
  });

  it("moveBy swaps with the neighbour, keeps gaps, and is a no-op at the ends or across containers", () => {
    const t = setup();
    const before = t.state;
    expect(t.run({ type: "moveBy", ids: ["a"], delta: -1 })).toBe(before);
    expect(t.run({ type: "moveBy", ids: ["c"], delta: 1 })).toBe(before);
    expect(t.run({ type: "moveBy", ids: ["x"], delta: -1 })).toBe(before);
    expect(t.run({ type: "moveBy", ids: ["z"], delta: 1 })).toBe(before);
    expect(t.run({ type: "moveBy", ids: ["a", "c"], delta: 1 })).toBe(before);
    expect(t.run({ type: "moveBy", ids: ["a", "x"], delta: 1 })).toBe(before);
    expect(t.run({ type: "moveBy", ids: ["nope"], delta: 1 })).toBe(before);
    t.run({ type: "moveBy", ids: ["b"], delta: -1 });
    expect(kids(t.state)).toEqual(["a", "b", "s1", "s2", "c"]);
    t.run({ type: "moveBy", ids: ["y"], delta: -1 });
    expect(kids(t.state, "s1")).toEqual(["y", "x"]);
    t.run({ type: "moveBy", ids: ["b", "a"], delta: 1 });
    expect(kids(t.state)).toEqual(["s1", "a", "b", "s2", "c"]);
    t.run({ type: "moveBy", ids: ["s1", "b"], delta: 1 });
    expect(kids(t.state)).toEqual(["a", "s1", "s2", "b", "c"]);
    expect(t.state.past.map((e) => e.label)).toEqual(["moveBy", "moveBy", "moveBy", "moveBy"]);
  });
});

describe("remove", () => {
  it("removes blocks with all their descendants from every record", () => {
    const t = setup();
    t.run({ type: "remove", ids: ["s2", "z", "x"] });
    const doc = currentDoc(t.state);
    expect(kids(t.state)).toEqual(["a", "s1", "b", "c"]);
    expect(kids(t.state, "s1")).toEqual(["y"]);
    for (const id of ["s2", "s3", "z", "x"]) {
      expect(id in doc.blocks).toBe(false);
      expect(id in doc.parent).toBe(false);
      expect(id in doc.children).toBe(false);
    }
    expect(Object.keys(doc.blocks).sort()).toEqual(["a", "b", "c", "s1", "y"]);
  });

  it("hands the active block on to the next sibling, else the previous, else the container, else none", () => {
    const t = setup();
    t.run({ type: "select", id: "s2" }, { type: "remove", ids: ["s2"] });
    expect([t.state.active, t.state.selected]).toEqual(["c", ["c"]]);
    t.run({ type: "remove", ids: ["c"] });
    expect([t.state.active, t.state.selected]).toEqual(["b", ["b"]]);
    t.run({ type: "select", id: "x" }, { type: "select", id: "y", mode: "toggle" }, { type: "remove", ids: ["x", "y"] });
    expect([t.state.active, t.state.selected]).toEqual(["s1", ["s1"]]);
    t.run({ type: "remove", ids: ["a", "s1", "b"] });
    expect([t.state.active, t.state.selected]).toEqual([null, []]);
    expect(kids(t.state)).toEqual([]);
  });

  it("hands on from a removed container whose child was active, and keeps an active block that stays", () => {
    const t = setup();
    t.run({ type: "select", id: "z" }, { type: "remove", ids: ["s2"] });
    expect(t.state.active).toBe("c");
    t.run({ type: "select", id: "a" }, { type: "select", id: "b", mode: "toggle" }, { type: "select", id: "a", mode: "toggle" });
    expect([t.state.active, t.state.selected]).toEqual(["b", ["b"]]);
    t.run({ type: "select", id: "a", mode: "toggle" }, { type: "remove", ids: ["b"] });
    expect([t.state.active, t.state.selected]).toEqual(["a", ["a"]]);
  });

  it("is a no-op for unknown ids", () => {
    const t = setup();
    const before = t.state;
    expect(t.run({ type: "remove", ids: ["nope", ROOT, "__proto__"] })).toBe(before);
  });
});

describe("duplicate", () => {
  it("copies a container deeply with new ids right after it and selects the copy", () => {
    const t = setup();
    t.run({ type: "duplicate", ids: ["s2"] });
    expect(kids(t.state)).toEqual(["a", "s1", "b", "s2", "n1", "c"]);
    expect(kids(t.state, "n1")).toEqual(["n2"]);
    expect(kids(t.state, "n2")).toEqual(["n3"]);
    expect(kids(t.state, "s2")).toEqual(["s3"]);
    expect(blocksFromDoc(currentDoc(t.state))[4]).toEqual({ ...section("n1", [{ ...section("n2", [{ ...text("n3"), text: "text z" }]), heading: "heading s3" }]), heading: "heading s2" });
    expect([t.state.active, t.state.selected]).toEqual(["n1", ["n1"]]);
  });

  it("puts copies of several blocks after the last of them in their container, in document order", () => {
    const t = setup();
    t.run({ type: "duplicate", ids: ["b", "a", "y"] });
    expect(kids(t.state)).toEqual(["a", "s1", "b", "n1", "n2", "s2", "c"]);
    expect(kids(t.state, "s1")).toEqual(["x", "y", "n3"]);
    expect(currentDoc(t.state).blocks.n1!.fields).toEqual({ text: "text a" });
    expect(t.state.selected).toEqual(["n3", "n1", "n2"]);
    expect(t.state.active).toBe("n3");
    const before = t.state;
    expect(t.run({ type: "duplicate", ids: ["nope"] })).toBe(before);
  });
});

describe("setField and setFields", () => {
  it("sets one field and refuses reserved names, unknown blocks and the same value", () => {
    const t = setup();
    t.run({ type: "setField", id: "x", field: "text", value: "new" });
    expect(currentDoc(t.state).blocks.x!.fields).toEqual({ text: "new" });
    expect(blocksFromDoc(currentDoc(t.state), "s1")[0]).toEqual(text("x", { text: "new" }));
    const before = t.state;
    for (const field of ["id", "schemaId", "blocks", "__proto__", "constructor", "prototype"]) {
      expect(t.run({ type: "setField", id: "x", field, value: "bad" })).toBe(before);
    }
    expect(t.run({ type: "setField", id: "nope", field: "text", value: "v" })).toBe(before);
    expect(t.run({ type: "setField", id: "x", field: "text", value: "new" })).toBe(before);
    expect(t.run({ type: "setFields", id: "x", fields: { text: "new" } })).toBe(before);
    expect(t.run({ type: "setFields", id: "x", fields: { text: "v", id: "y" } })).toBe(before);
    expect(t.run({ type: "setFields", id: "x", fields: JSON.parse('{"__proto__": {"polluted": true}}') })).toBe(before);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("coalesces consecutive setField on one block and field into one undo step", () => {
    const t = setup();
    const start = t.state;
    t.run(
      { type: "setField", id: "a", field: "text", value: "W" },
      { type: "setField", id: "a", field: "text", value: "Wo" },
      { type: "setField", id: "a", field: "text", value: "Wor" },
      { type: "setField", id: "a", field: "text", value: "Word" },
    );
    expect(t.state.past).toHaveLength(1);
    expect(t.state.revision).toBe(4);
    expect(currentDoc(t.state).blocks.a!.fields.text).toBe("Word");
    t.run({ type: "undo" });
    expect(t.state.docs).toBe(start.docs);
    expect(canUndo(t.state)).toBe(false);
    t.run({ type: "redo" });
    expect(currentDoc(t.state).blocks.a!.fields.text).toBe("Word");
  });

  it("starts a new step after another action, another field or another block", () => {
    for (const between of [
      { type: "select", id: "b" },
      { type: "setField", id: "a", field: "other", value: 1 },
      { type: "setField", id: "b", field: "text", value: 1 },
      { type: "setFields", id: "a", fields: { text: "set" } },
      { type: "moveBy", ids: ["a"], delta: 1 },
      { type: "insert", parent: ROOT, index: 0, blocks: [text("q")] },
    ] satisfies EditorAction[]) {
      const t = setup();
      t.run({ type: "setField", id: "a", field: "text", value: "one" }, between, { type: "setField", id: "a", field: "text", value: "two" });
      const steps = between.type === "select" ? 2 : 3;
      expect(t.state.past, between.type).toHaveLength(steps);
      t.run({ type: "undo" });
      expect(currentDoc(t.state).blocks.a!.fields.text).not.toBe("two");
    }
  });

  it("starts a new step after an undo", () => {
    const t = setup();
    t.run(
      { type: "setField", id: "a", field: "text", value: "one" },
      { type: "setField", id: "b", field: "text", value: "b" },
      { type: "undo" },
      { type: "setField", id: "a", field: "text", value: "two" },
    );
    expect(t.state.past).toHaveLength(2);
    t.run({ type: "undo" });
    expect(currentDoc(t.state).blocks.a!.fields.text).toBe("one");
  });

  it("setFields sets several fields in one step", () => {
    const t = setup();
    t.run({ type: "setFields", id: "s1", fields: { heading: "H", width: "wide" } });
    expect(currentDoc(t.state).blocks.s1!.fields).toEqual({ heading: "H", width: "wide" });
    expect(t.state.past.map((e) => e.label)).toEqual(["setFields"]);
    t.run({ type: "undo" });
    expect(currentDoc(t.state).blocks.s1!.fields).toEqual({ heading: "heading s1" });
  });
});

describe("undo and redo", () => {
  it("walk a chain of changes back and forth, restoring docs and selection", () => {
    const t = setup();
    const s0 = t.state;
    t.run({ type: "select", id: "b" });
    const s1 = t.run({ type: "move", ids: ["b"], parent: "s1", index: 0 });
    const s2 = t.run({ type: "select", id: "y" }, { type: "select", id: "x", mode: "toggle" }, { type: "duplicate", ids: ["x", "y"] });
    expect(s2.selected).toEqual(["n1", "n2"]);
    const s3 = t.run({ type: "remove", ids: ["n1"] });
    expect(s3.active).toBe("n2");
    expect(canRedo(t.state)).toBe(false);

    t.run({ type: "undo" });
    expect([t.state.docs, t.state.active, t.state.selected]).toEqual([s2.docs, "n1", ["n1", "n2"]]);
    expect(t.state.docs).toBe(s2.docs);
    t.run({ type: "undo" });
    expect(t.state.docs).toBe(s1.docs);
    expect([t.state.active, t.state.selected]).toEqual(["x", ["x", "y"]]);
    t.run({ type: "undo" });
    expect(t.state.docs).toBe(s0.docs);
    expect([t.state.active, t.state.selected]).toEqual(["b", ["b"]]);
    expect(canUndo(t.state)).toBe(false);
    const bottom = t.state;
    expect(t.run({ type: "undo" })).toBe(bottom);

    t.run({ type: "redo" }, { type: "redo" });
    expect(t.state.docs).toBe(s2.docs);
    expect([t.state.active, t.state.selected]).toEqual(["n1", ["n1", "n2"]]);
    expect(t.state.future.map((e) => e.label)).toEqual(["remove"]);
    t.run({ type: "redo" });
    expect(t.state.docs).toBe(s3.docs);
    expect(t.state.active).toBe("n2");
    const top = t.state;
    expect(t.run({ type: "redo" })).toBe(top);
    expect(t.state.revision).toBe(9);
  });

  it("a new change clears what could be redone", () => {
    const t = setup();
    t.run({ type: "remove", ids: ["a"] }, { type: "remove", ids: ["b"] }, { type: "undo" }, { type: "undo" });
    expect(t.state.future).toHaveLength(2);
    t.run({ type: "moveBy", ids: ["c"], delta: -1 });
    expect(canRedo(t.state)).toBe(false);
    expect(t.state.past).toHaveLength(1);
    expect(kids(t.state)).toEqual(["a", "s1", "b", "c", "s2"]);
  });

  it("keeps at most 200 steps, dropping the oldest", () => {
    const t = setup();
    for (let i = 1; i <= 250; i++) t.run({ type: "setFields", id: "a", fields: { text: `v${i}` } });
    expect(t.state.past).toHaveLength(HISTORY_LIMIT);
    expect(HISTORY_LIMIT).toBe(200);
    for (let i = 0; i < 300; i++) t.run({ type: "undo" });
    expect(currentDoc(t.state).blocks.a!.fields.text).toBe("v50");
    expect(t.state.future).toHaveLength(200);
    for (let i = 0; i < 300; i++) t.run({ type: "redo" });
    expect(currentDoc(t.state).blocks.a!.fields.text).toBe("v250");
  });

  it("goes back to the language the change was made in", () => {
    const t = setup(page(), [text("e")]);
    t.run({ type: "remove", ids: ["a"] }, { type: "setLanguage", language: "en" });
    expect(t.state.past).toHaveLength(1);
    t.run({ type: "undo" });
    expect(t.state.language).toBe("de");
    expect(kids(t.state)[0]).toBe("a");
  });
});

describe("languages", () => {
  it("copies the whole page to the other language with new ids, as one undo step", () => {
    const t = setup(page(), [text("e")]);
    const de = t.state.docs.de;
    t.run({ type: "select", id: "a" }, { type: "copyToLanguage", ids: "all", to: "en" });
    expect(t.state.docs.de).toBe(de);
    expect(t.state.active).toBe("a");
    const en = t.state.docs.en;
    expect(childrenOf(en, ROOT)).toHaveLength(5);
    const ids = Object.keys(en.blocks);
    expect(ids).toHaveLength(9);
    expect(ids.filter((id) => id in de.blocks)).toEqual([]);
    const withoutIds = (blocks: Block[]): unknown => blocks.map(({ id: _id, blocks: inner, ...rest }) => (inner ? { ...rest, blocks: withoutIds(inner as Block[]) } : rest));
    expect(withoutIds(blocksFromDoc(en))).toEqual(withoutIds(blocksFromDoc(de)));
    t.run({ type: "undo" });
    expect(blocksFromDoc(t.state.docs.en)).toEqual([text("e")]);

    const empty = setup([], []);
    const before = empty.state;
    expect(empty.run({ type: "copyToLanguage", ids: "all", to: "en" })).toBe(before);
  });

  it("appends copies of some blocks (with their children) to the other language's page", () => {
    const t = setup(page(), [text("e")]);
    t.run({ type: "copyToLanguage", ids: ["s2", "z", "a", "nope"], to: "en" });
    const en = t.state.docs.en;
    expect(childrenOf(en, ROOT)).toEqual(["e", "n1", "n2"]);
    expect(en.blocks.n1!.fields).toEqual({ text: "text a" });
    expect(en.blocks.n2!.schemaId).toBe("block-section");
    expect(pathOf(en, "n4")).toEqual(["n2", "n3"]);
    const before = t.state;
    expect(t.run({ type: "copyToLanguage", ids: ["a"], to: "de" })).toBe(before);
    expect(t.run({ type: "copyToLanguage", ids: ["nope"], to: "en" })).toBe(before);
  });

  it("setLanguage switches the edited doc, clears the selection and is no undo step", () => {
    const t = setup(page(), [text("e")]);
    t.run({ type: "select", id: "a" }, { type: "setLanguage", language: "en" });
    expect([t.state.language, t.state.active, t.state.selected, t.state.past.length]).toEqual(["en", null, [], 0]);
    expect(kids(t.state)).toEqual(["e"]);
    const before = t.state;
    expect(t.run({ type: "setLanguage", language: "en" })).toBe(before);
    expect(t.run({ type: "select", id: "a" })).toBe(before);
    t.run({ type: "insert", parent: ROOT, index: 1, blocks: [text("q")] });
    expect(childrenOf(t.state.docs.en, ROOT)).toHaveLength(2);
    expect(childrenOf(t.state.docs.de, ROOT)).toHaveLength(5);
  });
});

describe("select", () => {
  it("replaces, toggles (in document order) and selects a range within one container", () => {
    const t = setup();
    t.run({ type: "select", id: "c" });
    expect([t.state.active, t.state.selected]).toEqual(["c", ["c"]]);
    t.run({ type: "select", id: "a", mode: "toggle" }, { type: "select", id: "x", mode: "toggle" });
    expect([t.state.active, t.state.selected]).toEqual(["x", ["a", "x", "c"]]);
    t.run({ type: "select", id: "a", mode: "toggle" });
    expect([t.state.active, t.state.selected]).toEqual(["x", ["x", "c"]]);
    t.run({ type: "select", id: "x", mode: "toggle" });
    expect([t.state.active, t.state.selected]).toEqual(["c", ["c"]]);
    t.run({ type: "select", id: "s1", mode: "range" });
    expect([t.state.active, t.state.selected]).toEqual(["s1", ["s1", "b", "s2", "c"]]);
    t.run({ type: "select", id: "a", mode: "range" });
    expect([t.state.active, t.state.selected]).toEqual(["a", ["a", "s1"]]);
    // Across containers a range is a plain selection.
    t.run({ type: "select", id: "y", mode: "range" });
    expect([t.state.active, t.state.selected]).toEqual(["y", ["y"]]);
    t.run({ type: "select", id: "y", mode: "toggle" });
    expect([t.state.active, t.state.selected]).toEqual([null, []]);
    t.run({ type: "select", id: "z" }, { type: "select", id: null });
    expect([t.state.active, t.state.selected]).toEqual([null, []]);
    expect(t.state.past).toHaveLength(0);
    expect(t.state.revision).toBe(0);
  });

  it("returns the same state for an unknown id or a selection that does not change", () => {
    const t = setup();
    t.run({ type: "select", id: "b" });
    const before = t.state;
    expect(t.run({ type: "select", id: "b" })).toBe(before);
    expect(t.run({ type: "select", id: "nope" })).toBe(before);
    expect(t.run({ type: "select", id: "constructor", mode: "toggle" })).toBe(before);
    expect(t.run({ type: "select", id: "b", mode: "range" })).toBe(before);
  });
});

describe("structural sharing", () => {
  it("a field change replaces only that block; every list and other block keeps its object", () => {
    const t = setup();
    const doc = currentDoc(t.state);
    t.run({ type: "setField", id: "x", field: "text", value: "changed" });
    const next = currentDoc(t.state);
    expect(next.blocks.x).not.toBe(doc.blocks.x);
    for (const id of ["a", "s1", "y", "b", "s2", "s3", "z", "c"]) expect(next.blocks[id]).toBe(doc.blocks[id]);
    expect(next.children).toBe(doc.children);
    expect(next.parent).toBe(doc.parent);
    expect(t.state.docs.en).toBe(t.state.past[0]!.docs.en);
    expect(t.state.selected).toBe(t.state.past[0]!.selected);
  });

  it("a move replaces only the lists it changes and keeps every block object", () => {
    const t = setup();
    const doc = currentDoc(t.state);
    t.run({ type: "move", ids: ["y"], parent: "s1", index: 0 });
    let next = currentDoc(t.state);
    expect(next.children[ROOT]).toBe(doc.children[ROOT]);
    expect(next.children.s2).toBe(doc.children.s2);
    expect(next.children.s3).toBe(doc.children.s3);
    expect(next.children.s1).not.toBe(doc.children.s1);
    expect(next.parent).toBe(doc.parent);
    expect(next.blocks).toBe(doc.blocks);
    const afterFirst = next;
    t.run({ type: "move", ids: ["a"], parent: "s3", index: 0 });
    next = currentDoc(t.state);
    expect(next.children.s1).toBe(afterFirst.children.s1);
    expect(next.children[ROOT]).not.toBe(afterFirst.children[ROOT]);
    expect(next.blocks.a).toBe(doc.blocks.a);
    expect(next.children.s2).toBe(doc.children.s2);
  });

  it("at 2 000 blocks an action leaves every untouched block and list as it was", () => {
    const blocks: Block[] = [];
    for (let s = 0; s < 200; s++) blocks.push(section(`s${s}`, Array.from({ length: 9 }, (_, i) => text(`t${s}-${i}`))));
    const t = setup(blocks);
    const doc = currentDoc(t.state);
    expect(Object.keys(doc.blocks)).toHaveLength(2000);
    t.run({ type: "move", ids: ["t5-3", "t7-1"], parent: "s150", index: 4 }, { type: "setField", id: "t100-0", field: "text", value: "x" });
    const next = currentDoc(t.state);
    const changedLists = Object.keys(next.children).filter((c) => next.children[c] !== doc.children[c]);
    expect(changedLists.sort()).toEqual(["s150", "s5", "s7"]);
    const changedBlocks = Object.keys(next.blocks).filter((id) => next.blocks[id] !== doc.blocks[id]);
    expect(changedBlocks).toEqual(["t100-0"]);
    expect(childrenOf(next, "s150").slice(3, 7)).toEqual(["t150-3", "t5-3", "t7-1", "t150-4"]);
    expect(blocksFromDoc(next)).toHaveLength(200);
  });

  it("returns the same state object for a no-op of every kind", () => {
    const t = setup();
    t.run({ type: "select", id: "a" });
    const before = t.state;
    const noops: EditorAction[] = [
      { type: "insert", parent: "nope", index: 0, blocks: [text("q")] },
      { type: "paste", parent: "a", index: 0, blocks: [text("q")] },
      { type: "move", ids: ["nope"], parent: ROOT, index: 0 },
      { type: "moveBy", ids: ["nope"], delta: 1 },
      { type: "remove", ids: ["nope"] },
      { type: "duplicate", ids: [] },
      { type: "setField", id: "nope", field: "text", value: 1 },
      { type: "setFields", id: "a", fields: {} },
      { type: "copyToLanguage", ids: [], to: "en" },
      { type: "setLanguage", language: "de" },
      { type: "select", id: "a" },
      { type: "undo" },
      { type: "redo" },
    ];
    for (const action of noops) expect(t.run(action), action.type).toBe(before);
  });
});

describe("replaceDocs and revision", () => {
  it("loads docs from the server, clears history and keeps the selection that still exists", () => {
    const t = setup();
    t.run({ type: "select", id: "a" }, { type: "select", id: "b", mode: "toggle" }, { type: "remove", ids: ["c"] });
    const revision = t.state.revision;
    t.run({ type: "undo" }, { type: "replaceDocs", docs: { de: [text("b"), text("new")], en: [text("e")] } });
    expect(kids(t.state)).toEqual(["b", "new"]);
    expect(blocksFromDoc(t.state.docs.en)).toEqual([text("e")]);
    expect([t.state.active, t.state.selected]).toEqual(["b", ["b"]]);
    expect([canUndo(t.state), canRedo(t.state)]).toEqual([false, false]);
    expect(t.state.revision).toBe(revision + 2);
  });
});
