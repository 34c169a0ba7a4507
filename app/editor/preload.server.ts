import fs from "node:fs";
import path from "node:path";

interface ManifestChunk {
  file: string;
  imports?: string[];
}

let cached: string[] | undefined;

/**
 * The URLs of edit mode's chunk and the chunks it imports, from the client build's manifest, so the
 * edit-mode page asks for them with the page's own scripts instead of after hydration starts (it
 * would otherwise find out about them only when React reaches the lazy import). Read once; none
 * in development (no build) or when the manifest cannot be read.
 */
export function editorPreloads(): string[] {
  if (cached) return cached;
  try {
    const file = path.resolve(process.env.BUILD_DIR || "build", "client", ".vite", "manifest.json");
    const manifest = JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, ManifestChunk>;
    const seen = new Set<string>();
    const urls: string[] = [];
    const visit = (key: string) => {
      if (seen.has(key)) return;
      seen.add(key);
      const chunk = manifest[key];
      if (!chunk) return;
      urls.push(`/${chunk.file}`);
      for (const dep of chunk.imports ?? []) visit(dep);
    };
    visit("app/editor/edit-mode.tsx");
    cached = urls;
  } catch {
    cached = [];
  }
  return cached;
}
