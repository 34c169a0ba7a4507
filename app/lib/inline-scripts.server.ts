import { createHash } from "node:crypto";

/**
 * Takes the render-time marker off the document's own inline scripts and returns their SHA-256
 * hashes for the Content-Security-Policy. Only scripts that carry `marker` (React Router's, given it
 * as their nonce during this render) are hashed: a script anything else put into the page — content
 * that got past the sanitiser — is not, and the browser refuses to run it. The marker is random per
 * render and gone from the output, so nobody can learn it to forge an admitted script.
 */
export function sealInlineScripts(html: string, marker: string): { html: string; hashes: string[] } {
  const attribute = ` nonce="${marker}"`;
  const hashes = new Set<string>();
  const opening = /<script\b([^>]*)>/g;
  for (let m = opening.exec(html); m; m = opening.exec(html)) {
    if (!m[1]!.includes(attribute)) continue;
    const start = m.index + m[0].length;
    const end = html.indexOf("</script", start);
    if (end < 0) break;
    const text = html.slice(start, end);
    if (text) hashes.add(createHash("sha256").update(text, "utf8").digest("base64"));
    opening.lastIndex = end;
  }
  return { html: html.split(attribute).join(""), hashes: [...hashes] };
}
