import fs from "node:fs";

/** The Chromium browser tests use: CHROMIUM_PATH, else Debian's /usr/bin/chromium; undefined if none. */
export function findChromium() {
  for (const candidate of [process.env.CHROMIUM_PATH, "/usr/bin/chromium"]) {
    if (candidate && fs.existsSync(candidate)) return candidate;
  }
  return undefined;
}

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
