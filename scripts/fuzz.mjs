// `npm run fuzz`: a long fuzzing campaign against the production build (tests/fuzz). Builds when
// needed, then runs Vitest with FUZZ_RUNS=2000 per property and a random seed, unless FUZZ_SEED /
// FUZZ_RUNS are set (the seed is printed, and fast-check prints it again with any counterexample).
// Extra arguments go to Vitest, e.g. `npm run fuzz -- -t "consent"`.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { buildIfNeeded } from "./build-if-needed.mjs";

const root = path.resolve(import.meta.dirname, "..");
const env = { ...process.env };
env.FUZZ_RUNS ??= "2000";
env.FUZZ_SEED ??= String(Math.floor(Math.random() * 2 ** 31));
console.log(`fuzz campaign: FUZZ_SEED=${env.FUZZ_SEED} FUZZ_RUNS=${env.FUZZ_RUNS} (set either to override)`);

buildIfNeeded();
const vitest = path.join(root, "node_modules", "vitest", "vitest.mjs");
const result = spawnSync(process.execPath, [vitest, "run", "tests/fuzz", ...process.argv.slice(2)], { cwd: root, stdio: "inherit", env });
process.exit(result.status ?? 1);
