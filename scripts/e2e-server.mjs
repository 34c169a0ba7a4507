// Serves the production build on a fresh, throw-away data dir for the browser tests.
import fs from "node:fs";
import { e2eDataDir } from "../tests/support/e2e-data.mjs";

const dataDir = e2eDataDir(process.env.PORT ?? "default");
fs.rmSync(dataDir, { recursive: true, force: true });
process.env.DATA_DIR = dataDir;
process.env.TEST_ROUTES = "true";
// Browser tests fill forms faster than people and send many from one address: a shorter minimum
// fill time (the tests wait it out) and a high attempt limit. The limits themselves are tested in tests/api.
process.env.FORM_MIN_FILL_SECONDS ??= "1";
process.env.RATE_LIMIT_PER_HOUR ??= "100000";
// The tracker stays silent on localhost unless the server says otherwise (tests/e2e/analytics.spec.ts).
process.env.ANALYTICS_TRACK_LOCALHOST ??= "true";
await import("../server.js");
