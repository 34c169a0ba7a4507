/**
 * Which link addresses the rich-text field accepts: web pages (http, https), mail (mailto:), phone
 * (tel:) and paths on this site ("/..."). The same set the page sanitiser keeps
 * (app/site/rich-text.server.ts), minus what an author has no reason to type: relative paths
 * without a leading slash and anchors, which break when the text moves to another page.
 */
export function isAllowedLinkAddress(address: string): boolean {
  const value = address.trim();
  // Control characters and spaces inside an address are how schemes get smuggled past checks
  // ("java\tscript:"); an address an author types has none.
  // eslint-disable-next-line no-control-regex
  if (value === "" || /[\x00-\x20\x7f]/.test(value)) return false;
  if (value.startsWith("/")) {
    // "//host" and "/\host" are protocol-relative: another site, whatever this page's scheme.
    return !/^\/[/\\]/.test(value);
  }
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(value)?.[1]?.toLowerCase();
  if (scheme === "http" || scheme === "https") {
    // A web address needs "//" and a host: "https:foo" (which URL parsers repair) and "http://" are not one.
    if (!/^https?:\/\//i.test(value)) return false;
    try {
      return new URL(value).hostname !== "";
    } catch {
      return false;
    }
  }
  if (scheme === "mailto" || scheme === "tel") return value.length > scheme.length + 1;
  return false;
}
