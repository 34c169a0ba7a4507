import { describe, expect, it } from "vitest";
import { adminTexts } from "~/admin/texts";
import { messages } from "./messages";
import { formatCount } from "./numbers";

describe("formatCount", () => {
  it("groups thousands in the reader's language", () => {
    expect(formatCount(10036, "de")).toBe("10.036");
    expect(formatCount(10036, "en")).toBe("10,036");
    expect(formatCount(100000, "de")).toBe("100.000");
    expect(formatCount(7, "de")).toBe("7");
  });

  it("is what the admin lists and the directory print", () => {
    expect(adminTexts.de.pageOf(1, 4015)).toBe("Seite 1 von 4.015");
    expect(adminTexts.en.pageOf(1, 4015)).toBe("Page 1 of 4,015");
    expect(adminTexts.de.total(10036)).toBe("10.036 Einträge");
    expect(adminTexts.en.total(10036)).toBe("10,036 entries");
    expect(messages("de").resultsCount(10029)).toBe("10.029 Behandelnde gefunden");
    expect(messages("en").resultsCount(10029)).toBe("10,029 practitioners found");
  });
});
