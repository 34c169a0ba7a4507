import { describe, expect, it } from "vitest";
import { parseEvent } from "./event";
import { type HashedEvent, key, rollUp, type VisitorState } from "./rollup";

const T0 = Date.parse("2026-11-27T10:00:00Z") / 1000;
const ev = (hash: string, minute: number, over: Partial<HashedEvent> = {}): HashedEvent => ({
  ...parseEvent({ n: "pageview", u: "https://praxis.example/ueber-uns", d: "praxis.example", w: 1200 }, "de-DE,de;q=0.9"),
  day: "2026-11-27",
  ts: T0 + minute * 60,
  hash,
  ...over,
});

describe("rollUp", () => {
  it("counts visitors, visits, bounces and visit duration by the 30-minute rule", () => {
    const d = rollUp(
      [
        ev("a", 0),
        ev("a", 5, { page: "/kontakt" }),
        // 40 minutes later: a second visit of the same visitor, a bounce.
        ev("a", 45),
        ev("b", 1),
      ],
      new Map(),
      new Set(),
    );
    expect(d.daily.get("2026-11-27")).toEqual({ visitors: 2, pageviews: 4, visits: 3, bounces: 2, visit_seconds: 300, events: 0 });
    expect(d.breakdown.get(key("page", "2026-11-27", "/ueber-uns"))).toMatchObject({ visitors: 2, pageviews: 3 });
    expect(d.breakdown.get(key("page", "2026-11-27", "/kontakt"))).toMatchObject({ visitors: 1, pageviews: 1 });
    expect(d.breakdown.get(key("device", "2026-11-27", "laptop"))).toMatchObject({ visitors: 2, visits: 3 });
    expect(d.breakdown.get(key("country", "2026-11-27", "DE"))).toMatchObject({ visitors: 2 });
    expect(d.visitors.get(key("2026-11-27", "a"))).toEqual({ lastSeen: T0 + 45 * 60, visitPageviews: 1 });
  });

  it("continues a visit stored by an earlier batch: no new visitor, the bounce is taken back", () => {
    const known = new Map<string, VisitorState>([[key("2026-11-27", "a"), { lastSeen: T0, visitPageviews: 1 }]]);
    const seen = new Set([key("2026-11-27", "a", "page", "/ueber-uns"), key("2026-11-27", "a", "source", ""), key("2026-11-27", "a", "country", "DE"), key("2026-11-27", "a", "device", "laptop")]);
    const d = rollUp([ev("a", 10)], known, seen);
    expect(d.daily.get("2026-11-27")).toEqual({ visitors: 0, pageviews: 1, visits: 0, bounces: -1, visit_seconds: 600, events: 0 });
    expect(d.breakdown.get(key("page", "2026-11-27", "/ueber-uns"))).toMatchObject({ visitors: 0, pageviews: 1 });
    expect(d.seen).toEqual([]);
  });

  it("counts custom events with their props and revenue, and they are not page views", () => {
    const purchase = parseEvent({ name: "Buchung", url: "https://praxis.example/x?utm_source=newsletter", domain: "praxis.example", props: { art: "Erstgespräch", dauer: 30 }, revenue: { currency: "eur", amount: "49.90" } }, null);
    const d = rollUp([ev("a", 0), { ...purchase, day: "2026-11-27", ts: T0 + 60, hash: "a" }, { ...purchase, day: "2026-11-27", ts: T0 + 120, hash: "b" }], new Map(), new Set());
    expect(d.daily.get("2026-11-27")).toMatchObject({ visitors: 2, pageviews: 1, events: 2 });
    expect(d.breakdown.get(key("event", "2026-11-27", "Buchung"))).toMatchObject({ visitors: 2, events: 2 });
    expect(d.props.get(key("2026-11-27", "Buchung", "art", "Erstgespräch"))).toBe(2);
    expect(d.props.get(key("2026-11-27", "Buchung", "dauer", "30"))).toBe(2);
    expect(d.revenue.get(key("2026-11-27", "Buchung", "EUR"))).toEqual({ events: 2, amount: 99.8 });
    // The source is the visit's first event's: a's visit began without one.
    expect(d.breakdown.get(key("source", "2026-11-27", "newsletter"))).toMatchObject({ visitors: 1, visits: 1 });
    expect(d.breakdown.get(key("source", "2026-11-27", ""))).toMatchObject({ visitors: 1, visits: 1 });
  });
});

describe("parseEvent", () => {
  it("accepts the short and the long field names alike", () => {
    const short = parseEvent({ n: "pageview", u: "https://a.example/p?q=1#x", d: "a.example", r: "https://www.google.com/search?q=x", w: 400 }, "en-GB");
    const long = parseEvent({ name: "pageview", url: "https://a.example/p?q=1#x", domain: "a.example", referrer: "https://www.google.com/", screen_width: 400 }, "en-GB");
    expect(short).toEqual(long);
    expect(short).toMatchObject({ page: "/p", source: "google.com", country: "GB", device: "mobile" });
    expect(parseEvent({ n: "pageview", u: "https://a.example/#/route", d: "a.example", h: true }, null).page).toBe("/#/route");
  });

  it("takes the country from the browser's time zone first, then from Accept-Language", () => {
    const at = (tz: unknown, acceptLanguage: string | null) => parseEvent({ n: "pageview", u: "https://a.example/", d: "a.example", tz }, acceptLanguage).country;
    // An English browser in Vienna counts for Austria; an old zone name and a renamed one are known too.
    expect(at("Europe/Vienna", "en-US,en;q=0.9")).toBe("AT");
    expect(at("Europe/Kiev", null)).toBe("UA");
    expect(at("Asia/Calcutta", null)).toBe("IN");
    // Old names that tzdata links across a border keep their own country.
    expect(at("Atlantic/Jan_Mayen", null)).toBe("NO");
    // No country in the zone (UTC) or an unknown one: Accept-Language decides.
    expect(at("UTC", "de-CH")).toBe("CH");
    expect(at("Mars/Olympus", "de-DE")).toBe("DE");
    expect(at(undefined, null)).toBe("");
    expect(() => at(42, null)).toThrow(/"timezone" must be a string/);
  });

  it("refuses what is not an event with a message", () => {
    const cases: Array<[unknown, RegExp]> = [
      [[], /JSON object/],
      [{ u: "https://a.example/", d: "a.example" }, /"name" is required/],
      [{ n: "pageview", d: "a.example" }, /"url" is required/],
      [{ n: "pageview", u: "javascript:alert(1)", d: "a.example" }, /http\(s\) URL/],
      [{ n: "pageview", u: "https://a.example/" }, /"domain" is required/],
      [{ n: "pageview", u: "https://a.example/", d: "a.example", w: "wide" }, /screen_width/],
      [{ n: "x", u: "https://a.example/", d: "a.example", p: { nested: { a: 1 } } }, /string or a number/],
      [{ n: "x", u: "https://a.example/", d: "a.example", p: Object.fromEntries(Array.from({ length: 31 }, (_, i) => [`k${i}`, i])) }, /at most 30/],
      [{ n: "x", u: "https://a.example/", d: "a.example", $: { currency: "Euro", amount: 1 } }, /ISO 4217/],
      [{ n: "x", u: "https://a.example/", d: "a.example", $: { currency: "EUR", amount: "lots" } }, /amount/],
    ];
    for (const [body, message] of cases) expect(() => parseEvent(body, null), JSON.stringify(body).slice(0, 80)).toThrow(message);
  });
});
