import path from "node:path";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

/** The modules of the public site that every page needs (see `codeSplitting` below). */
const SITE_MODULES = /[\\/]app[\\/](?:i18n[\\/]|blocks[\\/]|consent[\\/]|booking[\\/]days|lib[\\/](?:input|http\.ts|hex-color)|practitioners[\\/](?:components|directory|paths)|site[\\/](?:content-page|icon|seo|site-context|smart-link)|root\.tsx|routes[\\/](?:site-layout|page|practitioners?)\.tsx)/;

export default defineConfig(({ command, isSsrBuild }) => ({
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  // The server bundle's entry is our Express app, which mounts React Router's request handler.
  // The client build keeps its manifest (not served: a dot folder): edit mode preloads its chunks from it.
  build: isSsrBuild
    ? { rollupOptions: { input: "./server/app.ts" } }
    : {
        manifest: true,
        // PN_SOURCEMAP=1: source maps beside the chunks, for profiling (bench/editor); never served by default.
        sourcemap: !!process.env.PN_SOURCEMAP,
        // PN_NOMINIFY=1: readable chunks, so a CPU profile names our functions (bench/editor probes).
        ...(process.env.PN_NOMINIFY ? { minify: false } : {}),
        rolldownOptions: {
          output: {
            // The site's own small modules every public page needs (languages, texts, the block
            // kinds and what they share) in one file instead of a dozen of a few hundred bytes
            // each: fewer requests and less compression overhead on a visitor's first page. What
            // only loads later (the editor, a map, the appointments edit variant) stays apart.
            codeSplitting: {
              groups: [{ name: "site", test: (id: string) => SITE_MODULES.test(id) && !/edit-variant/.test(id) }],
            },
          },
        },
      },
  ssr: {
    // The server bundle carries these pure-ESM packages inside it (built only: Vite's dev server
    // loads them as they are): hundreds of files fewer to resolve and read at start.
    noExternal: command === "build" ? ["kysely", "zod", "jose", "marked", "lru-cache", "react-router", "@react-router/express", "@react-router/node", "file-type"] : [],
    external: ["better-sqlite3", "sharp", "pg", "pino", "pino-http", "express", "compression", "helmet"],
  },
  // MapLibre's worker is an ES module.
  worker: { format: "es" },
  plugins: [tailwindcss(), reactRouter()],
}));
