import { describe, expect, it } from "vitest";
import { BLOCK_SCHEMAS } from "~/blocks/schemas";
import { labelled } from "./field-labels";
import type { EditorField } from "./types";

const field = (label: string, hints?: string, nested?: EditorField[]): EditorField => ({ name: label.toLowerCase(), label, hints, nested }) as unknown as EditorField;

describe("block fields in the editor's language", () => {
  it("every hint a block schema carries reads in plain words in German and in English", () => {
    const hints = BLOCK_SCHEMAS.flatMap((s) => s.fields.flatMap((f) => [f.properties?.hints, ...(f.nested ?? []).map((n) => n.properties?.hints)])).filter((h): h is string => !!h);
    expect(hints.length).toBeGreaterThan(5);
    for (const hint of hints) {
      const de = labelled(field("Text", hint), "de").hints;
      const en = labelled(field("Text", hint), "en").hints;
      expect(de, hint).toBeTruthy();
      expect(en, `no English for „${hint}“`).toBeTruthy();
      // Schema names and tag syntax are for developers, not editors.
      expect(`${de} ${en}`).not.toMatch(/core-|„edit“|\bp, h2\b|Hex-Code/);
    }
  });

  it("labels list entries' fields too, and leaves an unknown label as it is", () => {
    const out = labelled(field("Einträge", undefined, [field("Frage", "Für Screenreader."), field("Eigenes Feld")]), "en");
    expect(out.label).toBe("Entries");
    expect(out.nested?.map((n) => [n.label, n.hints])).toEqual([
      ["Question", "Read out by screen readers."],
      ["Eigenes Feld", undefined],
    ]);
  });
});
