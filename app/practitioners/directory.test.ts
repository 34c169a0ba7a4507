import { describe, expect, it } from "vitest";
import { filterPractitioners, neighbours, nextFreeSlots, paginate, parseDirectoryQuery, type PractitionerSummary } from "./directory";

const p = (id: string, name: string, city: string, languages: string[], country = "DE"): PractitionerSummary => ({
  id,
  slug: id,
  name,
  city,
  country,
  languages,
  websites: ["PRAXISNETZ"],
  finishedPractitioner: true,
});
const list = [p("a", "Jürgen Weiß", "Kassel", ["de", "en"]), p("b", "Sören Müller", "Hamburg", ["de", "da"]), p("c", "Anna Berg", "Wien", ["de"], "AT")];

describe("directory", () => {
  it("searches name and city ignoring case and accents", () => {
    expect(filterPractitioners(list, { q: "muller" }).map((x) => x.id)).toEqual(["b"]);
    expect(filterPractitioners(list, { q: "WEISS kassel" }).map((x) => x.id)).toEqual(["a"]);
    expect(filterPractitioners(list, { q: "hamburg" }).map((x) => x.id)).toEqual(["b"]);
    expect(filterPractitioners(list, { q: "nobody" })).toEqual([]);
  });

  it("finds German names however they are typed: Müller, Mueller, Muller; Köln, Koeln, Koln; by prefix", () => {
    const more = [...list, { ...p("d", "Özlem Größer", "Köln", ["de", "tr"]), speciality: "Physiotherapie" }];
    for (const q of ["Müller", "Mueller", "muller", "MUELLER", "Mül"]) expect(filterPractitioners(more, { q }).map((x) => x.id), q).toEqual(["b"]);
    for (const q of ["Köln", "Koeln", "koln", "Groesser", "grosser", "Oezlem", "phys", "Physio koeln"]) expect(filterPractitioners(more, { q }).map((x) => x.id), q).toEqual(["d"]);
  });

  it("filters by language and country", () => {
    expect(filterPractitioners(list, { language: "en" }).map((x) => x.id)).toEqual(["a"]);
    expect(filterPractitioners(list, { country: "AT" }).map((x) => x.id)).toEqual(["c"]);
    expect(filterPractitioners(list, { language: "de", country: "DE" }).map((x) => x.id)).toEqual(["a", "b"]);
  });

  it("pages and clamps the page number", () => {
    const many = Array.from({ length: 25 }, (_, i) => i);
    expect(paginate(many, 3, 12)).toMatchObject({ items: [24], page: 3, pages: 3, total: 25 });
    expect(paginate(many, 99, 12).page).toBe(3);
    expect(paginate([], 1, 12)).toMatchObject({ items: [], page: 1, pages: 1 });
  });

  it("wraps around at both ends", () => {
    expect(neighbours(list, "c")).toEqual({ previous: list[1], next: list[0] });
    expect(neighbours(list, "a")).toEqual({ previous: list[2], next: list[1] });
    expect(neighbours(list, "zz")).toBeNull();
  });

  it("reads the query string defensively", () => {
    expect(parseDirectoryQuery(new URLSearchParams("q=%20K%C3%B6ln%20&page=-3&language=en"))).toEqual({ q: "Köln", language: "en", country: undefined, page: 1 });
  });
});

describe("nextFreeSlots", () => {
  it("takes each practitioner's first unbooked slot", () => {
    const slots = [
      { practitioner: "a", start: "2030-01-01T08:00:00Z", booked: true },
      { practitioner: "a", start: "2030-01-01T09:00:00Z", booked: false },
      { practitioner: "b", start: "2030-01-02T09:00:00Z", booked: false },
      { practitioner: "a", start: "2030-01-03T09:00:00Z", booked: false },
      { practitioner: "c", start: "2030-01-01T07:00:00Z", booked: false },
    ];
    expect(nextFreeSlots(slots, ["a", "b"])).toEqual({ a: "2030-01-01T09:00:00Z", b: "2030-01-02T09:00:00Z" });
  });
});
