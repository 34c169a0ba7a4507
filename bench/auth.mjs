// Sign-in: how long checking a password takes for an address with no account next to a wrong
// password for a real one (app/auth/password.server.ts). Both verify one argon2id hash with the
// same parameters (the unit test checks that); this prints what it costs on this machine and the
// ratio, which should stay near 1 (an answer that is faster for unknown addresses tells an attacker
// which addresses have accounts). In process, alternating the two so a busy moment hits both.
// Run alone: `npm run bench -- --only=auth` (BENCH_AUTH_ROUNDS, default 40).
import fs from "node:fs";
import path from "node:path";
import * as esbuild from "esbuild";

const root = path.resolve(import.meta.dirname, "..");
const ROUNDS = Number(process.env.BENCH_AUTH_ROUNDS ?? 40);

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function runAuth() {
  // Inside the repository (.tmp is ignored), so the bundle finds @node-rs/argon2 in node_modules.
  fs.mkdirSync(path.join(root, ".tmp"), { recursive: true });
  const tmp = fs.mkdtempSync(path.join(root, ".tmp", "bench-auth-"));
  try {
    const outfile = path.join(tmp, "password.mjs");
    await esbuild.build({ entryPoints: [path.join(root, "app/auth/password.server.ts")], bundle: true, platform: "node", format: "esm", outfile, packages: "external", logLevel: "silent" });
    const { hashPassword, verifyPassword } = await import(outfile);
    const stored = await hashPassword("the-right-password-1");
    await verifyPassword(undefined, "warm-up"); // the decoy is made once, at start in the app
    const missing = [];
    const wrong = [];
    for (let i = 0; i < ROUNDS; i++) {
      for (const [list, hash] of i % 2 ? [[missing, undefined], [wrong, stored]] : [[wrong, stored], [missing, undefined]]) {
        const start = performance.now();
        await verifyPassword(hash, `wrong-password-${i}`);
        list.push(performance.now() - start);
      }
    }
    const [m, w] = [median(missing), median(wrong)];
    console.log(`\nPassword check (argon2id, ${ROUNDS} rounds each, median): no account ${m.toFixed(1)} ms, wrong password ${w.toFixed(1)} ms, ratio ${(m / w).toFixed(2)}`);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
