import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/** One entry of Vite's client manifest (build/client/.vite/manifest.json). */
interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}

export interface BuildInfo {
  /** Changes with every build whose client files differ: React Router's own manifest version. */
  id: string;
  /** The app shell: what the offline pages need to show and hydrate (URLs under /assets/). */
  shell: string[];
}

/** The route modules every public page loads, the PWA core, and the offline form notice (needed exactly when offline). */
const SHELL_MODULES = ["app/root.tsx", "app/routes/site-layout.tsx", "app/routes/offline.tsx", "app/routes/page.tsx", "app/pwa/client.ts", "app/pwa/offline-notice.ts"];

/**
 * Reads the build's client manifest once at start: the build id and the shell to precache (the
 * client entry, the root, site layout, page and offline route modules with their static imports
 * and stylesheets, and React Router's route manifest). Null when there is no build (development).
 */
export function readBuildInfo(clientDir: string): BuildInfo | null {
  let manifest: Record<string, ManifestChunk>;
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(clientDir, ".vite", "manifest.json"), "utf8")) as Record<string, ManifestChunk>;
  } catch {
    return null;
  }
  const routerManifest = fs.readdirSync(path.join(clientDir, "assets")).find((f) => /^manifest-[0-9a-f]{8}\.js$/.test(f));
  const id = routerManifest?.slice("manifest-".length, -".js".length) ?? createHash("sha256").update(JSON.stringify(manifest)).digest("hex").slice(0, 12);
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const [key, chunk] of Object.entries(manifest)) {
    const source = key.split("?")[0]!;
    if ((chunk.isEntry && source.endsWith("entry.client.tsx")) || SHELL_MODULES.includes(source)) visit(key);
  }
  if (routerManifest) files.add(`assets/${routerManifest}`);
  return { id, shell: [...files].sort().map((f) => `/${f}`) };
}
