// Builds the app when there is no build, or when a source file is newer than the build.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const stamp = path.join(root, "build/server/index.js");
const sources = ["app", "server", "public", "vite.config.ts", "react-router.config.ts", "package.json"];

function newest(p) {
  if (!fs.existsSync(p)) return 0;
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = st.mtimeMs;
  for (const entry of fs.readdirSync(p)) {
    if (entry === "node_modules" || entry.startsWith(".")) continue;
    max = Math.max(max, newest(path.join(p, entry)));
  }
  return max;
}

export function buildIfNeeded({ force = false } = {}) {
  const built = fs.existsSync(stamp) ? fs.statSync(stamp).mtimeMs : 0;
  const changed = Math.max(...sources.map((s) => newest(path.join(root, s))));
  if (!force && built && built >= changed) return false;
  console.log(built ? "Sources changed since the last build; building…" : "No build yet; building…");
  execFileSync(process.execPath, [path.join(root, "node_modules/@react-router/dev/bin.js"), "build"], { cwd: root, stdio: "inherit" });
  return true;
}

if (import.meta.url === `file://${process.argv[1]}`) buildIfNeeded({ force: process.argv.includes("--force") });
