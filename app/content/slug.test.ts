import { describe, expect, it } from "vitest";
import { slugify, SLUG_PATTERN } from "./slug";

describe("slugify", () => {
  it.each([
    ["Jürgen Weiß", "juergen-weiss"],
    ["Käthe Süßmann", "kaethe-suessmann"],
    ["Sören Müller", "soeren-mueller"],
    ["Dr. Anja Groß", "dr-anja-gross"],
    ["ÄRZTIN ÖZLEM ÜNAL", "aerztin-oezlem-uenal"],
    ["Ömer Yıldız", "oemer-yldz"],
    ["  Anna   Maria  Schmidt ", "anna-maria-schmidt"],
    ["Praxis Dr. med. Lutz (Physio) & Co.", "praxis-dr-med-lutz-physio-co"],
  ])("%s → %s", (name, slug) => {
    expect(slugify(name)).toBe(slug);
    expect(slug).toMatch(SLUG_PATTERN);
  });
});
