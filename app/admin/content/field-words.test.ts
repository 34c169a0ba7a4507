import { describe, expect, it } from "vitest";
import { demoSchemas } from "~/content/seed/schemas";
import { hasBlockWords } from "~/editor/field-labels";
import { LANGUAGES } from "~/i18n/languages";
import { collectionAbout, collectionName, fieldHint, fieldLabel, KNOWN, nestedFieldLabel } from "./field-words";

/** Words for whoever sets a schema up, never for editors. */
const TECHNICAL = /ISO|UTC|Tailwind|Europe\/Berlin|core-|gm-|\bTag\b|„private“|„necessary“/;

const isBlock = (name: string) => name.startsWith("block-");

describe("every seed schema speaks both admin languages", () => {
  it("names every collection and block, and says what every collection holds", () => {
    for (const schema of demoSchemas) {
      const words = Object.hasOwn(KNOWN.collections, schema.name) ? KNOWN.collections[schema.name]!.name : KNOWN.blocks[schema.name];
      expect(words, `no words for the schema ${schema.name}`).toBeTruthy();
      for (const language of LANGUAGES) {
        expect(collectionName(schema, language)).toBe(words![language]);
        if (!isBlock(schema.name)) expect(collectionAbout(schema, language), schema.name).not.toMatch(TECHNICAL);
      }
    }
  });

  it("labels every field (and every field of a list's entries) in German and English, with a hint where the schema has one", () => {
    let checked = 0;
    for (const schema of demoSchemas) {
      for (const field of schema.fields) {
        const where = `${schema.name}.${field.name}`;
        if (isBlock(schema.name)) {
          expect(hasBlockWords(field.properties.label ?? "", field.properties.hints), `no words for the block field ${where} (editor/field-labels.ts)`).toBe(true);
          for (const n of field.nested ?? []) expect(hasBlockWords(n.properties.label ?? "", n.properties.hints), `${where}.${n.name}`).toBe(true);
          continue;
        }
        const words = KNOWN.collections[schema.name]!.fields;
        expect(Object.hasOwn(words, field.name), `no words for the field ${where} (admin/content/field-words.ts)`).toBe(true);
        for (const language of LANGUAGES) {
          expect(fieldLabel(schema.name, field, language), where).toBeTruthy();
          const hint = fieldHint(schema.name, field, language);
          if (field.properties.hints) expect(hint, `no ${language} hint for ${where}`).toBeTruthy();
          expect(hint ?? "", where).not.toMatch(TECHNICAL);
          for (const n of field.nested ?? []) {
            expect(Object.hasOwn(words[field.name]!.nested ?? {}, n.name), `no words for ${where}.${n.name}`).toBe(true);
            expect(nestedFieldLabel(schema.name, field.name, n, language)).toBeTruthy();
          }
        }
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(50);
  });

  it("names fields in the editor's language", () => {
    const practitioners = demoSchemas.find((s) => s.name === "gm-content-practitioners")!;
    const display = practitioners.fields.find((f) => f.name === "display")!;
    expect(fieldLabel(practitioners.name, display, "de")).toBe("Sichtbar");
    expect(fieldLabel(practitioners.name, display, "en")).toBe("Visible");
    const appointments = demoSchemas.find((s) => s.name === "gm-appointments")!;
    const start = appointments.fields.find((f) => f.name === "start")!;
    expect(fieldHint(appointments.name, start, "en")).toBe("Date and time in German time.");
  });

  it("shows what editors wrote for schemas and fields the seed does not hold", () => {
    const own = { name: "praxis-news", properties: { label: "Neuigkeiten", hints: "Kurze Meldungen." } };
    const field = { name: "teaser", properties: { label: "Anreißer", hints: "Zwei Sätze." } };
    expect(collectionName(own, "en")).toBe("Neuigkeiten");
    expect(collectionAbout(own, "en")).toBe("Kurze Meldungen.");
    expect(fieldLabel(own.name, field, "en")).toBe("Anreißer");
    expect(fieldHint(own.name, field, "en")).toBe("Zwei Sätze.");
    // A field an editor added to a seed collection, too.
    expect(fieldLabel("gm-content-practitioners", field, "en")).toBe("Anreißer");
    expect(fieldHint("gm-content-practitioners", field, "de")).toBe("Zwei Sätze.");
    expect(collectionName({ name: "no-label", properties: {} }, "de")).toBe("no-label");
  });
});
