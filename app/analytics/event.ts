import { ContentError } from "~/content/errors";
import { countryOfTimeZone } from "./time-zones";

/**
 * One event of Plausible's event API (`POST /api/event`), checked and reduced to what the daily
 * rollups keep: no address, no user agent, no full referrer URL, no query string.
 */
export interface AnalyticsEvent {
  /** "pageview" or a custom event's name. */
  name: string;
  /** Path of the page (with its #fragment in hash mode), at most PAGE_MAX characters. */
  page: string;
  /** Where the visit came from: the referrer's host without "www." or utm_source; "" for direct. */
  source: string;
  /** ISO 3166 alpha-2 country: of the browser's time zone, else the region of Accept-Language; "" when unknown. */
  country: string;
  device: Device;
  props: Record<string, string>;
  revenue: { currency: string; amount: number } | null;
  /** The `domain` the tracker named: part of the visitor hash only. */
  domain: string;
}

export type Device = "mobile" | "tablet" | "laptop" | "desktop" | "";

export const BODY_LIMIT = 2048;
export const PAGE_MAX = 300;
export const NAME_MAX = 120;
export const PROPS_MAX = 30;
export const PROP_KEY_MAX = 300;
export const PROP_VALUE_MAX = 500;

const bad = (message: string) => new ContentError(400, message);

/** NUL separates the parts of the rollups' keys: no value may carry one. */
const clean = (text: string) => text.replace(/\u0000/g, "");

/** Plausible's field names: the tracker's short ones, and the long ones of the documented API. */
const FIELDS = { n: "name", u: "url", d: "domain", r: "referrer", w: "screen_width", h: "hashMode", p: "props", $: "revenue", tz: "timezone" } as const;

function field(body: Record<string, unknown>, short: keyof typeof FIELDS): unknown {
  if (Object.hasOwn(body, short)) return body[short];
  const long = FIELDS[short];
  return Object.hasOwn(body, long) ? body[long] : undefined;
}

const optionalString = (value: unknown, what: string): string | undefined => {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw bad(`"${what}" must be a string.`);
  return value;
};

/** Width breakpoints as Plausible's: mobile < 576 px, tablet < 992, laptop < 1440, desktop beyond. */
export function deviceOf(width: number | undefined): Device {
  if (width === undefined) return "";
  if (width < 576) return "mobile";
  if (width < 992) return "tablet";
  if (width < 1440) return "laptop";
  return "desktop";
}

/** The first language range of Accept-Language that names a region ("de-AT" → "AT"); no address lookup. */
export function countryOf(acceptLanguage: string | null | undefined): string {
  if (!acceptLanguage) return "";
  for (const part of acceptLanguage.slice(0, 200).split(",")) {
    const tag = part.split(";")[0]!.trim();
    const region = tag.split(/[-_]/).slice(1).find((s) => /^[A-Za-z]{2}$/.test(s));
    if (region) return region.toUpperCase();
  }
  return "";
}

/** utm_source (or ref/source) of the page's URL, else the referrer's host; our own host is no source. */
export function sourceOf(pageUrl: URL, referrer: string | undefined): string {
  const utm = pageUrl.searchParams.get("utm_source") ?? pageUrl.searchParams.get("ref") ?? pageUrl.searchParams.get("source");
  if (utm?.trim()) return clean(utm.trim()).slice(0, 100);
  if (!referrer) return "";
  let host: string;
  try {
    host = new URL(referrer).hostname.toLowerCase();
  } catch {
    return "";
  }
  if (!host || host === pageUrl.hostname.toLowerCase()) return "";
  return host.replace(/^www\./, "").slice(0, 100);
}

/** User agents of crawlers, monitors, previewers and scripts (Plausible ignores them too). */
const BOT = /bot|crawl|spider|slurp|archiver|facebookexternalhit|embedly|preview|monitor|pingdom|uptime|lighthouse|pagespeed|headlesschrome|phantomjs|puppeteer|playwright|selenium|curl|wget|python|java\/|go-http|okhttp|axios|node-fetch|undici|libwww|httpclient|^$/i;

export function isBot(userAgent: string | null | undefined): boolean {
  return BOT.test((userAgent ?? "").slice(0, 500));
}

function parseProps(value: unknown): Record<string, string> {
  if (value === undefined || value === null) return {};
  // Older trackers send props as a JSON string.
  if (typeof value === "string") {
    try {
      value = JSON.parse(value) as unknown;
    } catch {
      throw bad('"props" must be an object of strings and numbers.');
    }
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw bad('"props" must be an object of strings and numbers.');
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > PROPS_MAX) throw bad(`"props" may have at most ${PROPS_MAX} entries.`);
  const props: Record<string, string> = {};
  for (const [key, v] of entries) {
    if (!key || key.length > PROP_KEY_MAX) throw bad(`A prop's name must have 1 to ${PROP_KEY_MAX} characters.`);
    if (typeof v === "number" && Number.isFinite(v)) props[clean(key)] = String(v);
    else if (typeof v === "string") {
      if (v.length > PROP_VALUE_MAX) throw bad(`The prop "${key.slice(0, 40)}" is longer than ${PROP_VALUE_MAX} characters.`);
      if (v !== "") props[clean(key)] = clean(v);
    } else if (v !== null && v !== undefined) throw bad(`The prop "${key.slice(0, 40)}" must be a string or a number.`);
  }
  return props;
}

function parseRevenue(value: unknown): AnalyticsEvent["revenue"] {
  if (value === undefined || value === null) return null;
  if (typeof value === "string") {
    try {
      value = JSON.parse(value) as unknown;
    } catch {
      throw bad('"revenue" must be an object {currency, amount}.');
    }
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw bad('"revenue" must be an object {currency, amount}.');
  const { currency, amount } = value as Record<string, unknown>;
  if (typeof currency !== "string" || !/^[A-Za-z]{3}$/.test(currency)) throw bad('"revenue.currency" must be a three-letter ISO 4217 code such as EUR.');
  const number = typeof amount === "string" && /^-?\d{1,12}(\.\d{1,6})?$/.test(amount.trim()) ? Number(amount) : amount;
  if (typeof number !== "number" || !Number.isFinite(number) || Math.abs(number) > 1e12) throw bad('"revenue.amount" must be a number.');
  return { currency: currency.toUpperCase(), amount: number };
}

/** Checks a decoded body and the request's Accept-Language; a 400 with a message for anything else. */
export function parseEvent(body: unknown, acceptLanguage: string | null): AnalyticsEvent {
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw bad("The body must be a JSON object.");
  const b = body as Record<string, unknown>;
  const name = clean(optionalString(field(b, "n"), "name") ?? "").trim();
  if (!name) throw bad('"name" is required (e.g. "pageview").');
  if (name.length > NAME_MAX) throw bad(`"name" may have at most ${NAME_MAX} characters.`);
  const rawUrl = optionalString(field(b, "u"), "url");
  if (!rawUrl) throw bad('"url" is required.');
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw bad('"url" must be an absolute http(s) URL.');
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw bad('"url" must be an absolute http(s) URL.');
  const domain = optionalString(field(b, "d"), "domain")?.trim();
  if (!domain) throw bad('"domain" is required.');
  if (domain.length > 253) throw bad('"domain" is too long.');
  const referrer = optionalString(field(b, "r"), "referrer");
  const w = field(b, "w");
  if (w !== undefined && w !== null && (typeof w !== "number" || !Number.isInteger(w) || w < 0 || w > 100_000)) throw bad('"screen_width" must be a whole number of pixels.');
  const h = field(b, "h");
  if (h !== undefined && h !== null && typeof h !== "boolean" && h !== 0 && h !== 1) throw bad('"hashMode" must be true or false.');
  // Our tracker adds the browser's IANA time zone (not part of Plausible's API): a better guess at
  // the country than the language settings (an English browser in Berlin), and no address lookup.
  const timeZone = optionalString(field(b, "tz"), "timezone");
  let path = url.pathname;
  if (h && url.hash.length > 1) path += url.hash;
  return {
    name,
    page: path.slice(0, PAGE_MAX),
    source: sourceOf(url, referrer),
    country: countryOfTimeZone(timeZone) || countryOf(acceptLanguage),
    device: deviceOf(typeof w === "number" ? w : undefined),
    props: parseProps(field(b, "p")),
    revenue: parseRevenue(field(b, "$")),
    domain: domain.toLowerCase(),
  };
}
