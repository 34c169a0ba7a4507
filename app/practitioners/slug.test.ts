import { describe, expect, it } from "vitest";
import { assignSlugs, practitionerSlug, SLUG_PATTERN } from "./slug";

describe("practitionerSlug", () => {
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
    expect(practitionerSlug(name)).toBe(slug);
    expect(slug).toMatch(SLUG_PATTERN);
  });
});

describe("assignSlugs", () => {
  it("gives duplicates a suffix in id order, whatever the input order", () => {
    const a = [
      { id: "p-2", name: "Maria Schneider" },
      { id: "p-1", name: "Maria Schneider" },
      { id: "p-3", name: "Jürgen Weiß" },
    ];
    const slugs = assignSlugs(a);
    expect(slugs.get("p-1")).toBe("maria-schneider");
    expect(slugs.get("p-2")).toBe("maria-schneider-2");
    expect(slugs.get("p-3")).toBe("juergen-weiss");
    expect(assignSlugs([...a].reverse())).toEqual(slugs);
  });

  it("never hands out a suffixed slug that another name owns", () => {
    const slugs = assignSlugs([
      { id: "a", name: "Max Muster" },
      { id: "b", name: "Max Muster" },
      { id: "c", name: "Max Muster 2" },
    ]);
    expect(new Set(slugs.values()).size).toBe(3);
    expect(slugs.get("c")).toBe("max-muster-2");
    expect(slugs.get("b")).toBe("max-muster-3");
  });
});
