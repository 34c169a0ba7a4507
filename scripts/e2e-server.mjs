// Serves the production build on a fresh, throw-away data dir for the browser tests.
import fs from "node:fs";
import path from "node:path";

const dataDir = path.resolve(import.meta.dirname, "../.tmp/e2e-data");
fs.rmSync(dataDir, { recursive: true, force: true });
process.env.DATA_DIR = dataDir;
process.env.TEST_ROUTES = "true";
await import("../server.js");
