import { localizedPath, type Language } from "~/i18n/languages";

/** A practitioner profile's address in a language: `/practitioners/{slug}`, `/en/practitioners/{slug}`. */
export const profilePath = (language: Language, slug: string) => localizedPath(language, `/practitioners/${slug}`);
