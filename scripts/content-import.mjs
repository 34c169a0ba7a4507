// `npm run content:import -- …`: see app/content/transfer/cli.server.ts. Works on the store the server
// uses (DATA_DIR or DATABASE_URL). Runs from the production build (built if needed), as user:create.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { buildIfNeeded } from "./build-if-needed.mjs";

if (!process.env.BUILD_DIR) buildIfNeeded();
const buildDir = path.resolve(import.meta.dirname, "..", process.env.BUILD_DIR || "build");
const { contentImportCommand } = await import(pathToFileURL(path.join(buildDir, "server/index.js")).href);
process.exitCode = await contentImportCommand(process.argv.slice(2));
