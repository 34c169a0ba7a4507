import { timingSafeEqual } from "node:crypto";

/** Whether two secrets (text or bytes) are equal, in time that does not depend on where they differ. */
export function sameSecret(given: string | Buffer, expected: string | Buffer): boolean {
  const a = typeof given === "string" ? Buffer.from(given) : given;
  const b = typeof expected === "string" ? Buffer.from(expected) : expected;
  return a.length === b.length && timingSafeEqual(a, b);
}
