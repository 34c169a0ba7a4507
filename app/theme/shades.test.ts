import { describe, expect, it } from "vitest";
import {
  BAD_HEX,
  DEFAULT_THEME_SETTINGS,
  SHADE_STEPS,
  isHexColor,
  normalizeHex,
  shade,
  themeVariables,
  themeVariablesWithWarnings,
  validateHex,
} from "./shades";

describe("hex validation", () => {
  it("accepts 3 and 6 hex digits with '#', in any case", () => {
    for (const v of ["#fff", "#FFF", "#0F5E63", "#0f5e63", "#a1B"]) expect(isHexColor(v), v).toBe(true);
    expect(validateHex("#0F5E63")).toBeNull();
  });

  it('reports everything else as "Bad Hex"', () => {
    for (const v of ["fff", "#ffff", "#12345", "#1234567", "#ggg", " #fff", "#fff ", "red", "", null, undefined, 0xffffff]) {
      expect(isHexColor(v), String(v)).toBe(false);
      expect(validateHex(v)).toBe(BAD_HEX);
    }
    expect(BAD_HEX).toBe("Bad Hex");
  });
});

describe("shade", () => {
  // Worked out by hand (HSL by the CSS Color 4 formulas) and cross-checked with Python's colorsys.
  it.each([
    ["#808080", 6, "#8f8f8f"], // grey: l 50.2 % -> 56.2 %, 0.562 * 255 = 143.3
    ["#808080", -18, "#525252"], // l 32.2 % -> 82.1
    ["#ff0000", 12, "#ff3d3d"], // l 62 %: q = 1, p = 0.24 -> 61.2
    ["#ff0000", -18, "#a30000"], // l 32 %: q = 0.64 -> 163.2
    ["#0F5E63", 6, "#13777e"], // petrol: h 183.6°, s 73.7 %, l 22.4 % -> 28.4 %
    ["#0F5E63", 12, "#179098"],
    ["#0F5E63", 18, "#1baab3"],
    ["#0F5E63", -6, "#0b4548"],
    ["#0F5E63", -12, "#072c2e"],
    ["#0F5E63", -18, "#031213"],
    ["#E9785D", -12, "#e24b27"],
    ["#E9785D", 18, "#f4bbae"],
    ["#3D5A80", -6, "#334b6b"],
  ])("shade(%s, %i) = %s", (hex, step, expected) => {
    expect(shade(hex, step)).toBe(expected);
  });

  it("clamps lightness at black and white", () => {
    expect(shade("#fff", 6)).toBe("#ffffff");
    expect(shade("#f0f0f0", 18)).toBe("#ffffff");
    expect(shade("#000", -6)).toBe("#000000");
    expect(shade("#1F2328", -18)).toBe("#000000"); // l 13.9 % - 18 -> 0
  });

  it("expands 3-digit hex and returns lowercase 6-digit hex", () => {
    expect(shade("#abc", 0)).toBe("#aabbcc");
    expect(shade("#ABC", 12)).toBe("#d0dae3");
    expect(normalizeHex("#0F5E63")).toBe("#0f5e63");
  });

  it("round-trips every colour unchanged at step 0", () => {
    for (let i = 0; i < 2000; i++) {
      const hex = "#" + ((i * 2654435761) >>> 8).toString(16).padStart(6, "0").slice(-6);
      expect(shade(hex, 0)).toBe(hex);
    }
  });

  it("throws on bad hex", () => {
    expect(() => shade("#12", 6)).toThrow(BAD_HEX);
    expect(() => shade("red", 6)).toThrow(BAD_HEX);
  });
});

describe("themeVariables", () => {
  const settings = {
    colorMain: "#0F5E63",
    colorSupport: "#8FB3A0",
    colorAccent: "#E9785D",
    colorNeutral: "#F3EDE4",
    colorBlack: "#1F2328",
    colorWhite: "#fff",
  };

  it("has the base colour and six shades per role", () => {
    const vars = themeVariables(settings);
    expect(SHADE_STEPS).toEqual([-18, -12, -6, 6, 12, 18]);
    expect(Object.keys(vars)).toHaveLength(6 * 7);
    expect(vars["--color-main"]).toBe("#0f5e63");
    expect(vars["--color-main-6"]).toBe("#13777e");
    expect(vars["--color-main--6"]).toBe("#0b4548");
    expect(vars["--color-accent--12"]).toBe("#e24b27");
    expect(vars["--color-white"]).toBe("#ffffff");
    expect(vars["--color-white-18"]).toBe("#ffffff");
    expect(vars["--color-black--18"]).toBe("#000000");
    expect(Object.keys(vars).slice(0, 7)).toEqual([
      "--color-main",
      "--color-main--18",
      "--color-main--12",
      "--color-main--6",
      "--color-main-6",
      "--color-main-12",
      "--color-main-18",
    ]);
  });

  it("falls back to the default palette for bad values and reports them", () => {
    const bad = { ...settings, colorAccent: "#12345", colorNeutral: undefined as unknown as string };
    const { variables, warnings } = themeVariablesWithWarnings(bad);
    expect(variables["--color-accent"]).toBe(DEFAULT_THEME_SETTINGS.colorAccent);
    expect(variables["--color-neutral"]).toBe(DEFAULT_THEME_SETTINGS.colorNeutral);
    expect(variables["--color-main"]).toBe("#0f5e63");
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/^Bad Hex: colorAccent "#12345"/);
    expect(warnings[1]).toMatch(/^Bad Hex: colorNeutral null/);
    expect(themeVariablesWithWarnings(settings).warnings).toEqual([]);
  });
});
