// `npm start`: build when needed, then serve the production build (the store is created on first start).
import { spawn } from "node:child_process";
import path from "node:path";
import { buildIfNeeded } from "./build-if-needed.mjs";

const root = path.resolve(import.meta.dirname, "..");
buildIfNeeded();
const child = spawn(process.execPath, [path.join(root, "server.js")], { stdio: "inherit", env: { NODE_ENV: "production", ...process.env } });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
