import path from "node:path";

/** The throw-away data dir of the e2e server on `port` (scripts/e2e-server.mjs empties it at start). */
export function e2eDataDir(port) {
  return path.resolve(import.meta.dirname, `../../.tmp/e2e-data-${port}`);
}
