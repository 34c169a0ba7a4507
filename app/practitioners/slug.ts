/**
 * The profile slug of a practitioner name: lower-case; ä→ae, ö→oe, ü→ue, ß→ss; spaces become
 * hyphens; every other character that is not a-z, 0-9 or a hyphen is dropped.
 */
export function practitionerSlug(name: string): string {
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

/**
 * Unique slugs for a list of practitioners. When two names give the same slug, the one with the
 * smaller id keeps it and the others get `-2`, `-3`… in id order, so links stay stable no matter
 * in which order the list was read.
 */
export function assignSlugs(items: ReadonlyArray<{ id: string; name: string }>): Map<string, string> {
  const byBase = new Map<string, string[]>();
  for (const item of [...items].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
    const base = practitionerSlug(item.name) || "praxis";
    byBase.set(base, [...(byBase.get(base) ?? []), item.id]);
  }
  const slugs = new Map<string, string>();
  const taken = new Set(byBase.keys());
  for (const [base, ids] of byBase) {
    slugs.set(ids[0]!, base);
    let n = 2;
    for (const id of ids.slice(1)) {
      while (taken.has(`${base}-${n}`)) n++;
      slugs.set(id, `${base}-${n}`);
      taken.add(`${base}-${n}`);
      n++;
    }
  }
  return slugs;
}

/** A well-formed profile slug; anything else fails route validation. */
export const SLUG_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;
