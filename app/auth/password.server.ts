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

/**
 * The hash a password is checked against: the stored one, or the decoy when there is none. Both are
 * argon2id with OPTIONS, so a missing account costs one verification with the same parameters as a
 * wrong password (the timing itself is measured by `npm run bench -- --only=auth`, not asserted).
 */
export async function hashToVerify(stored: string | null | undefined): Promise<string> {
  return stored ?? (await prepareDecoy());
}

/** The cost parameters of a PHC argon2 string (`$argon2id$v=19$m=…,t=…,p=…`), or null for anything else. */
export function argon2Parameters(phc: string): string | null {
  return phc.match(/^\$(argon2(?:id|i|d))\$v=\d+\$(m=\d+,t=\d+,p=\d+)\$/)?.slice(1, 3).join(" ") ?? null;
}

/** True when `password` matches `stored`; with no stored hash the same work is done against a decoy. */
export async function verifyPassword(stored: string | null | undefined, password: string): Promise<boolean> {
  const target = await hashToVerify(stored);
  try {
    const ok = await verify(target, password.slice(0, PASSWORD_MAX + 1));
    return ok && !!stored;
  } catch {
    return false;
  }
}
