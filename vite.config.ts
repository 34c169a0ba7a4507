import path from "node:path";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

export default defineConfig(({ command, isSsrBuild }) => ({
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  // The server bundle's entry is our Express app, which mounts React Router's request handler.
  // The client build keeps its manifest (not served: a dot folder): edit mode preloads its chunks from it.
  build: isSsrBuild ? { rollupOptions: { input: "./server/app.ts" } } : { manifest: true },
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
