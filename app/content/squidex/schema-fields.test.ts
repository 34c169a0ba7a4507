import { describe, expect, it } from "vitest";
import { ContentError } from "../errors";
import type { Schema } from "../types";
import { applyFieldChange, fieldChange } from "./schema-fields";

const schema = (fields: Schema["fields"], properties: Schema["properties"] = {}): Schema => ({
  id: "s1",
  name: "things",
  type: "Default",
  isPublished: true,
  properties,
  fields,
  version: 3,
  created: "",
  createdBy: "",
  lastModified: "",
  lastModifiedBy: "",
});

const rows = (locked = false): Schema["fields"][number] => ({
  fieldId: 2,
  name: "rows",
  partitioning: "invariant",
  properties: { fieldType: "Array" },
  ...(locked ? { isLocked: true } : {}),
  nested: [
    { fieldId: 1, name: "text", properties: { fieldType: "String" } },
    { fieldId: 2, name: "n", properties: { fieldType: "Number" }, isLocked: true },
  ],
});
const title: Schema["fields"][number] = { fieldId: 1, name: "title", partitioning: "invariant", properties: { fieldType: "String", isIndexed: true } };

function refusal(fn: () => unknown): ContentError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ContentError) return e;
    throw e;
  }
  throw new Error("Expected a refusal.");
}

describe("fieldChange", () => {
  it("reads Squidex's field paths, at the top and among an Array field's entries", () => {
    expect(fieldChange("POST", [])).toEqual({ op: "add" });
    expect(fieldChange("PUT", ["ordering"])).toEqual({ op: "order" });
    expect(fieldChange("PUT", ["7"])).toEqual({ op: "update", fieldId: 7 });
    expect(fieldChange("DELETE", ["7"])).toEqual({ op: "delete", fieldId: 7 });
    expect(fieldChange("PUT", ["7", "lock"])).toEqual({ op: "lock", fieldId: 7 });
    expect(fieldChange("POST", ["2", "nested"])).toEqual({ op: "add", parentId: 2 });
    expect(fieldChange("PUT", ["2", "nested", "ordering"])).toEqual({ op: "order", parentId: 2 });
    expect(fieldChange("PUT", ["2", "nested", "1", "disable"])).toEqual({ op: "disable", fieldId: 1, parentId: 2 });
    expect(fieldChange("DELETE", ["2", "nested", "1"])).toEqual({ op: "delete", fieldId: 1, parentId: 2 });
  });

  it("names nothing for other paths and methods, and answers 404 for a field that is not a number", () => {
    for (const [method, parts] of [["GET", ["7"]], ["PUT", ["7", "explode"]], ["PUT", ["7", "constructor"]], ["DELETE", ["ordering"]], ["POST", ["7"]], ["PUT", ["2", "nested", "1", "hide", "x"]]] as const)
      expect(fieldChange(method, parts), `${method} ${parts.join("/")}`).toBeUndefined();
    expect(refusal(() => fieldChange("PUT", ["abc"])).statusCode).toBe(404);
    expect(refusal(() => fieldChange("POST", ["x", "nested"])).statusCode).toBe(404);
    expect(refusal(() => fieldChange("PUT", ["1".repeat(12)])).statusCode).toBe(404);
  });
});

describe("applyFieldChange", () => {
  it("keeps our side-table index of a field whose properties a Squidex client changes", () => {
    const { fields } = applyFieldChange(schema([title]), { op: "update", fieldId: 1 }, { properties: { fieldType: "String", maxLength: 5 } });
    expect(fields[0]!.properties).toEqual({ fieldType: "String", maxLength: 5, isIndexed: true });
  });

  it("refuses a locked entry field of an unlocked Array field, and every entry of a locked one, but another lock", () => {
    const s = schema([title, rows()]);
    expect(refusal(() => applyFieldChange(s, { op: "hide", fieldId: 2, parentId: 2 }, undefined)).message).toMatch(/Field 2 \("n"\) is locked/);
    expect(applyFieldChange(s, { op: "hide", fieldId: 1, parentId: 2 }, undefined).fields[1]!.nested![0]!.isHidden).toBe(true);
    expect(applyFieldChange(s, { op: "lock", fieldId: 2, parentId: 2 }, undefined).fields[1]!.nested![1]!.isLocked).toBe(true);
    const locked = schema([title, rows(true)]);
    expect(refusal(() => applyFieldChange(locked, { op: "update", fieldId: 1, parentId: 2 }, { properties: { fieldType: "String" } })).message).toMatch(/Field 2 \("rows"\) is locked: its entry fields/);
    expect(refusal(() => applyFieldChange(locked, { op: "add", parentId: 2 }, { name: "x", properties: { fieldType: "String" } })).statusCode).toBe(400);
    // The schema as given is left as it was.
    expect(s.fields[1]!.nested![0]!.isHidden).toBeUndefined();
  });

  it("orders by ids each named once, and says what is missing, unknown or named twice", () => {
    const s = schema([title, rows()]);
    expect(applyFieldChange(s, { op: "order" }, { fieldIds: [2, 1] }).fields.map((f) => f.name)).toEqual(["rows", "title"]);
    const refused = refusal(() => applyFieldChange(s, { op: "order" }, { fieldIds: [2, 2, 9] }));
    expect(refused.details).toEqual(["fieldIds: Must name every one of the fields of schema \"things\" exactly once.", "fieldIds: Missing 1.", "fieldIds: No such field: 9.", "fieldIds: Named twice: 2."]);
    // A long hostile list is refused like a short one (the ids are counted in sets, not searched in lists).
    expect(refusal(() => applyFieldChange(s, { op: "order" }, { fieldIds: Array.from({ length: 200_000 }, (_, i) => i) })).statusCode).toBe(400);
  });

  it("takes a deleted field out of the editor's lists", () => {
    const s = schema([title, rows()], { fieldsInLists: ["meta.id", "title", "rows"], fieldsInReferences: ["title"] });
    expect(applyFieldChange(s, { op: "delete", fieldId: 1 }, undefined).properties).toEqual({ fieldsInLists: ["meta.id", "rows"], fieldsInReferences: [] });
  });
});
