// `npm run user:create -- --email a@b.example [--password …] [--superuser]`: adds a user to the
// store the server uses (DATA_DIR or DATABASE_URL). Runs from the production build (built if needed).
import path from "node:path";
import { pathToFileURL } from "node:url";
import { buildIfNeeded } from "./build-if-needed.mjs";

if (!process.env.BUILD_DIR) buildIfNeeded();
const buildDir = path.resolve(import.meta.dirname, "..", process.env.BUILD_DIR || "build");
const { createUserCommand } = await import(pathToFileURL(path.join(buildDir, "server/index.js")).href);
process.exitCode = await createUserCommand(process.argv.slice(2));
