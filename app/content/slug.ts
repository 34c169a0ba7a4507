/**
 * The slug of a name: lower-case; ä→ae, ö→oe, ü→ue, ß→ss; spaces become hyphens; every other
 * character that is not a-z, 0-9 or a hyphen is dropped. Stored slugs (field-index.ts) use it.
 */
export function slugify(name: string): string {
  return name
    .toLowerCase()
    .replace(/ä/g, "ae")
    .replace(/ö/g, "oe")
    .replace(/ü/g, "ue")
    .replace(/ß/g, "ss")
    .replace(/\s+/g, "-")
    .replace(/[^a-z0-9-]/g, "")
    .replace(/-+/g, "-")
    .replace(/^-|-$/g, "");
}

/** A well-formed slug; anything else fails route validation. */
export const SLUG_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;
