import { describe, expect, it } from "vitest";
import { BLOCK_SCHEMAS } from "~/blocks/schemas";
import type { Schema } from "~/content/types";
import { schemaFromForm } from "./block-form";
import { fieldCanStart, fieldsWithoutStart, isBlockSchemaName } from "./block-rules";

const hero = BLOCK_SCHEMAS.find((s) => s.name === "block-hero")!;
const stored = { ...hero, id: "s1", type: "Component", isPublished: true, properties: hero.properties ?? {}, fields: hero.fields.map((f, i) => ({ ...f, fieldId: i + 1 })) } as Schema;

describe("the block field rule (§5)", () => {
  it("lets a field start from a default, even an empty one, or a known tag", () => {
    expect(fieldCanStart({ fieldType: "String", defaultValue: "" })).toBe(true);
    expect(fieldCanStart({ fieldType: "Number", defaultValue: 0 })).toBe(true);
    expect(fieldCanStart({ fieldType: "Assets", tags: ["image"] })).toBe(true);
    expect(fieldCanStart({ fieldType: "String", tags: ["private", "link"] })).toBe(true);
  });

  it("stops a field with neither, or only unknown tags", () => {
    expect(fieldCanStart({ fieldType: "String" })).toBe(false);
    expect(fieldCanStart({ fieldType: "String", tags: ["email"] })).toBe(false);
    expect(fieldCanStart({ fieldType: "String", defaultValue: null })).toBe(false);
  });

  it("holds for every block the app ships", () => {
    for (const schema of BLOCK_SCHEMAS) expect(fieldsWithoutStart(schema), schema.name).toEqual([]);
  });

  it("names the fields that break it, for block schemas only", () => {
    const broken = { name: "block-x", fields: [{ name: "a", partitioning: "invariant" as const, properties: { fieldType: "String" as const } }] };
    expect(fieldsWithoutStart(broken)).toEqual(["a"]);
    expect(fieldsWithoutStart({ ...broken, name: "core-settings-blocks" })).toEqual([]);
    expect(isBlockSchemaName("block-hero") && isBlockSchemaName("core-settings-blocks") && !isBlockSchemaName("core-pages")).toBe(true);
  });
});

describe("the block form", () => {
  it("keeps what the form sends back unchanged and adds a new field", () => {
    const { input, errors } = schemaFromForm(stored, { ...heroForm(), "new.name": "subtitle", "new.fieldType": "String", "new.defaultValue": '"Hallo"', "new.tags": "a, b" });
    expect(errors).toEqual([]);
    expect(input.fields.slice(0, -1)).toEqual(stored.fields);
    expect(input.fields.at(-1)).toEqual({ name: "subtitle", partitioning: "invariant", properties: { fieldType: "String", tags: ["a", "b"], defaultValue: "Hallo" } });
    expect(fieldsWithoutStart(input)).toEqual([]);
  });

  it("removes what the form leaves empty, so a cleared default breaks the rule", () => {
    const { input } = schemaFromForm(stored, { ...heroForm(), "field.0.defaultValue": "" });
    expect(input.fields[0]!.properties.defaultValue).toBeUndefined();
    expect(fieldsWithoutStart(input)).toEqual(["heading"]);
  });

  it("finds a new field without default or known tag", () => {
    const { input } = schemaFromForm(stored, { ...heroForm(), "new.name": "extra", "new.fieldType": "String" });
    expect(fieldsWithoutStart(input)).toEqual(["extra"]);
  });

  it("reports bad JSON, counts and field types per input", () => {
    const { errors } = schemaFromForm(stored, { ...heroForm(), "field.0.defaultValue": "Neue Überschrift", "field.1.maxLength": "-1", "field.2.fieldType": "Text" });
    expect(errors).toEqual([
      { input: "field.0.defaultValue", problem: "json" },
      { input: "field.1.maxLength", problem: "count" },
      { input: "field.2.fieldType", problem: "fieldType" },
    ]);
  });
});

describe("the block form for entries with fields of their own (Array)", () => {
  const accordionSchema = BLOCK_SCHEMAS.find((s) => s.name === "block-accordion")!;
  const accordion = { ...accordionSchema, id: "s2", type: "Component", isPublished: true, properties: accordionSchema.properties ?? {}, fields: accordionSchema.fields.map((f, i) => ({ ...f, fieldId: i + 1 })) } as Schema;
  const items = 1;

  it("keeps the entries' fields as they were when nothing changes", () => {
    const { input, errors } = schemaFromForm(accordion, formOf(accordion));
    expect(errors).toEqual([]);
    expect(input.fields).toEqual(accordion.fields);
  });

  it("edits an entry field's properties and adds one with the next id", () => {
    const { input, errors } = schemaFromForm(accordion, {
      ...formOf(accordion),
      [`field.${items}.nested.0.label`]: "Die Frage",
      [`field.${items}.nested.1.isRequired`]: "",
      [`field.${items}.nested.new.name`]: "open",
      [`field.${items}.nested.new.fieldType`]: "Boolean",
      [`field.${items}.nested.new.defaultValue`]: "false",
    });
    expect(errors).toEqual([]);
    const nested = input.fields[items]!.nested!;
    expect(nested.map((n) => [n.fieldId, n.name])).toEqual([[1, "question"], [2, "answer"], [undefined, "open"]]);
    expect(nested[0]!.properties.label).toBe("Die Frage");
    expect(nested[1]!.properties.isRequired).toBeUndefined();
    expect(nested[2]!.properties).toEqual({ fieldType: "Boolean", defaultValue: false });
  });

  it("reports an entry field's bad input at that input", () => {
    const { errors } = schemaFromForm(accordion, { ...formOf(accordion), [`field.${items}.nested.0.defaultValue`]: "kein JSON", [`field.${items}.nested.new.name`]: "x", [`field.${items}.nested.new.minLength`]: "1.5" });
    expect(errors).toEqual([
      { input: `field.${items}.nested.0.defaultValue`, problem: "json" },
      { input: `field.${items}.nested.new.minLength`, problem: "count" },
    ]);
  });
});

/** The form as the screen sends it for the hero schema unchanged. */
function heroForm(): Record<string, string> {
  return formOf(stored);
}

/** The form as the screen sends it for a schema unchanged, the entries' fields of Array fields too. */
function formOf(schema: Schema): Record<string, string> {
  const form: Record<string, string> = {};
  const put = (prefix: string, p: Schema["fields"][number]["properties"]) => {
    form[`${prefix}.fieldType`] = p.fieldType;
    if (p.label) form[`${prefix}.label`] = p.label;
    if (p.editor) form[`${prefix}.editor`] = p.editor;
    if (p.tags) form[`${prefix}.tags`] = p.tags.join(", ");
    if (p.defaultValue !== undefined) form[`${prefix}.defaultValue`] = JSON.stringify(p.defaultValue);
    if (p.isRequired) form[`${prefix}.isRequired`] = "on";
  };
  schema.fields.forEach((f, i) => {
    put(`field.${i}`, f.properties);
    f.nested?.forEach((n, j) => put(`field.${i}.nested.${j}`, n.properties));
  });
  return form;
}
