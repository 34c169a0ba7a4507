/** Small builders for the store's data shape, shared by the seed modules. */
import { LANGUAGES, type Language } from "../../i18n/languages";
import type { ContentData } from "../types";

export type Lang = Language;
export const LANGS: readonly Lang[] = LANGUAGES;

/** A type alias, not an interface, so it stays assignable to the store's Record-shaped data. */
export type Localized<T> = { de: T; en: T };

export interface DemoItem {
  schema: string;
  id: string;
  status: "Published" | "Draft";
  data: ContentData;
}

export interface GeoPoint {
  latitude: number;
  longitude: number;
}

/** Invariant partition: `{ iv: value }`. */
export function iv<T>(value: T): { iv: T } {
  return { iv: value };
}

/** Localised partition: `{ de, en }`. */
export function loc<T>(de: T, en: T): Localized<T> {
  return { de, en };
}

/** Builds a `{ de, en }` partition by calling `make` once per language. */
export function perLang<T>(make: (lang: Lang) => T): Localized<T> {
  return { de: make("de"), en: make("en") };
}

export function geo(latitude: number, longitude: number): GeoPoint {
  // Round so offsets added to city centres don't print as 51.312700000000004.
  return { latitude: Math.round(latitude * 1e5) / 1e5, longitude: Math.round(longitude * 1e5) / 1e5 };
}

/** `list[index % length]`, typed as present (the seed lists are never empty). */
export function cycle<T>(list: readonly T[], index: number): T {
  const value = list[index % list.length];
  if (value === undefined) throw new Error("cycle() on an empty list");
  return value;
}
