import fs from "node:fs";
import path from "node:path";

interface ManifestChunk {
  file: string;
  imports?: string[];
}

let manifest: Record<string, ManifestChunk> | null | undefined;
const cache = new Map<string, string[]>();

/**
 * The URLs of a source module's chunk in the client build and of the chunks it imports, from the
 * build's manifest, so a page can ask for them with its own scripts instead of when the browser
 * reaches the lazy import. Read once; none in development (no build) or when the manifest cannot
 * be read.
 */
export function clientChunks(source: string): string[] {
  const known = cache.get(source);
  if (known) return known;
  if (manifest === undefined) {
    try {
      manifest = JSON.parse(fs.readFileSync(path.resolve(process.env.BUILD_DIR || "build", "client", ".vite", "manifest.json"), "utf8")) as Record<string, ManifestChunk>;
    } catch {
      manifest = null;
    }
  }
  const urls: string[] = [];
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest?.[key];
    if (!chunk) return;
    urls.push(`/${chunk.file}`);
    for (const dep of chunk.imports ?? []) visit(dep);
  };
  visit(source);
  cache.set(source, urls);
  return urls;
}
