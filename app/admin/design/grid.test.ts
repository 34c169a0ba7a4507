import { describe, expect, it } from "vitest";
import { matchesSearch, screenHref } from "./grid";
import { pickerValue } from "./ui";

describe("the design grids' search and addresses", () => {
  it("matches like the store's contains: any field, case and accents ignored, empty keeps all", () => {
    expect(matchesSearch(["Moosgrün", "#4a7a3c"], "GRUN")).toBe(true);
    expect(matchesSearch(["Moosgrün", "#4a7a3c"], "4A7A")).toBe(true);
    expect(matchesSearch(["Sand", undefined], "grün")).toBe(false);
    expect(matchesSearch(["Sand"], "  ")).toBe(true);
  });

  it("leaves out empty values and page 1, and jumps to the panel when something is selected", () => {
    expect(screenHref("/manage/colors", { q: "", page: 1, themes: 1 })).toBe("/manage/colors");
    expect(screenHref("/manage/colors", { q: "pet", page: 2, selected: "color-petrol" })).toBe("/manage/colors?q=pet&page=2&selected=color-petrol#detail");
    expect(screenHref("/manage/squidex/icons", { q: "a b", selected: null })).toBe("/manage/squidex/icons?q=a+b");
  });

  it("gives the colour picker six lower-case digits, or nothing for a bad code", () => {
    expect(pickerValue("#ABC")).toBe("#aabbcc");
    expect(pickerValue(" #0F5E63 ")).toBe("#0f5e63");
    expect(pickerValue("#0f5e6")).toBeNull();
    expect(pickerValue("petrol")).toBeNull();
  });
});
