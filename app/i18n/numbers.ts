import type { Language } from "./languages";

/**
 * Counts as people read them: 10.036 in German, 10,036 in English. Building an Intl.NumberFormat is
 * costly compared with formatting, and a list prints several counts per render, so each language's
 * formatter is made once.
 */
const LOCALES: Record<Language, string> = { de: "de-DE", en: "en-GB" };
const formatters = new Map<Language, Intl.NumberFormat>();

export function formatCount(n: number, language: Language): string {
  let formatter = formatters.get(language);
  if (!formatter) {
    formatter = new Intl.NumberFormat(LOCALES[language], { maximumFractionDigits: 0 });
    formatters.set(language, formatter);
  }
  return formatter.format(n);
}
