/**
 * Class tokens typed by editors end up in generated CSS and in `class` attributes, so only plain
 * Tailwind utilities are let through: lowercase letters, digits, `-`, `:` (variants), `.` (decimals)
 * and `/` (fractions, opacity). Arbitrary values (`bg-[...]`, `(...)`), `!important`, `@container`
 * variants and anything else that could carry CSS or markup are refused.
 */

const VARIANT = "[a-z0-9]+(?:-[a-z0-9]+)*:"; // md:, hover:, group-hover:, max-lg:, 2xl:
const SEGMENT = "-[a-z0-9]+(?:\\.[0-9]+)?"; // -4, -0.5, -2xl, -tight
const NEGATIVE_NUMBER = "--[0-9]+"; // our darker shades: bg-main--6
const UTILITY = `-?[a-z][a-z0-9]*(?:${SEGMENT}|${NEGATIVE_NUMBER})*(?:/[0-9]+(?:\\.[0-9]+)?)?`;
const TOKEN = new RegExp(`^(?:${VARIANT})*${UTILITY}$`);

export const MAX_TOKEN_LENGTH = 100;

export function isValidClassToken(token: string): boolean {
  return token.length <= MAX_TOKEN_LENGTH && TOKEN.test(token);
}

/** Splits on whitespace; duplicates are dropped, order is kept. */
export function validateClassTokens(input: string): { valid: string[]; invalid: string[] } {
  const valid = new Set<string>();
  const invalid = new Set<string>();
  for (const token of input.split(/\s+/)) {
    if (token === "") continue;
    (isValidClassToken(token) ? valid : invalid).add(token);
  }
  return { valid: [...valid], invalid: [...invalid] };
}
