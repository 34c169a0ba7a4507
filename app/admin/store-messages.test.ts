import { describe, expect, it } from "vitest";
import { storeDetail, storeMessage } from "./store-messages";

/** The store's messages, as app/content/validate.ts and the asset store write them. */
const SAMPLES = [
  "Field is required.",
  "Not a known field.",
  "Not a known language.",
  "Must follow the pattern.",
  "Not an allowed value.",
  '"xx" is not an allowed value.',
  "Must be greater or equal to 3.",
  "Must be less or equal to 10.",
  "Latitude must be between -90 and 90.",
  "Longitude must be between -180 and 180.",
  "Invalid json type, expected string.",
  'Unknown component schema "nope".',
  'Component schema "block-x" is not allowed here.',
  "Component must name its schema (schemaId).",
  "Unsupported or unrecognised file type (image/png).",
];

describe("the store's messages in the editor's language", () => {
  it("says every known message in German and in English, none left in the API's words", () => {
    for (const sample of SAMPLES) {
      const de = storeMessage(sample, "de");
      const en = storeMessage(sample, "en");
      expect(de, sample).not.toBe(sample);
      expect(en, sample).not.toBe(sample);
      expect(de, sample).not.toMatch(/\b(?:field|required|invalid|json|schema|must|allowed|unsupported)\b/i);
    }
    expect(storeMessage("Must be greater or equal to 3.", "de")).toBe("Mindestens 3.");
  });

  it("names the place in words: list entries counted from 1, no technical keys", () => {
    expect(storeDetail("children.de[2].label: Field is required.", "de")).toBe("children › de › Eintrag 2 › label: Bitte ausfüllen.");
    expect(storeDetail("name.iv: Field is required.", "en")).toBe("name: Please fill this in.");
    expect(storeDetail("Something new.", "de")).toBe("Something new.");
  });
});
