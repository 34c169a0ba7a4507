/**
 * Whether an `If-None-Match` header matches `etag` (RFC 9110 §13.1.2: weak comparison): `*`, or any
 * entry of the comma-separated list, with or without the `W/` prefix a proxy may have added.
 */
export function etagMatches(ifNoneMatch: string | null | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch === etag) return true;
  const bare = etag.replace(/^W\//, "");
  return ifNoneMatch.split(",").some((tag) => {
    const t = tag.trim();
    return t === "*" || t.replace(/^W\//, "") === bare;
  });
}
