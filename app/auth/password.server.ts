import { type Algorithm, hash, verify } from "@node-rs/argon2";

/**
 * Password hashes: argon2id with OWASP's first recommended setting (19 MiB, 2 passes, 1 lane),
 * stored as PHC strings, so the setting can change later and old hashes still verify.
 */
/** Argon2id: the package declares its algorithms as a const enum, which isolated modules cannot read. */
const ARGON2ID = 2 as Algorithm;
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 200;

/** Why a new password is refused (null: acceptable). The texts are keys into the admin dictionary. */
export function passwordProblem(password: string, email?: string): "tooShort" | "tooLong" | "sameAsEmail" | null {
  if ([...password].length < PASSWORD_MIN) return "tooShort";
  if (password.length > PASSWORD_MAX) return "tooLong";
  if (email && password.trim().toLowerCase() === email.trim().toLowerCase()) return "sameAsEmail";
  return null;
}

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

/**
 * A hash of nothing anyone knows: checked against when the account does not exist, so both cases
 * take as long. Made at start (`prepareDecoy`), not by the first unknown address (which would then
 * take a hash longer than every other answer).
 */
let decoy: Promise<string> | undefined;
export function prepareDecoy(): Promise<string> {
  return (decoy ??= hashPassword(`decoy-${Math.random()}`));
}

/** True when `password` matches `stored`; with no stored hash the same work is done against a decoy. */
export async function verifyPassword(stored: string | null | undefined, password: string): Promise<boolean> {
  const target = stored ?? (await prepareDecoy());
  try {
    const ok = await verify(target, password.slice(0, PASSWORD_MAX + 1));
    return ok && !!stored;
  } catch {
    return false;
  }
}
