import { describe, expect, it } from "vitest";
import { argon2Parameters, hashPassword, hashToVerify, PASSWORD_MAX, PASSWORD_MIN, passwordProblem, verifyPassword } from "./password.server";

describe("password rules", () => {
  it("want at least 10 characters (counted as characters, not UTF-16 units), at most 200", () => {
    expect(PASSWORD_MIN).toBe(10);
    expect(passwordProblem("")).toBe("tooShort");
    expect(passwordProblem("a".repeat(9))).toBe("tooShort");
    expect(passwordProblem("a".repeat(10))).toBeNull();
    expect(passwordProblem("😀".repeat(5))).toBe("tooShort"); // 10 UTF-16 units, 5 characters
    expect(passwordProblem("a".repeat(PASSWORD_MAX))).toBeNull();
    expect(passwordProblem("a".repeat(PASSWORD_MAX + 1))).toBe("tooLong");
  });

  it("refuse the e-mail address as password, whatever its case and spaces", () => {
    expect(passwordProblem("someone@example.com", "someone@example.com")).toBe("sameAsEmail");
    expect(passwordProblem(" SomeOne@Example.com ", "someone@example.com")).toBe("sameAsEmail");
    expect(passwordProblem("someone@example.com!", "someone@example.com")).toBeNull();
  });
});

describe("argon2id hashes", () => {
  it("verify the right password only, and are salted", async () => {
    const hash = await hashPassword("correct horse battery");
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(hash, "correct horse battery")).toBe(true);
    expect(await verifyPassword(hash, "correct horse batterY")).toBe(false);
    expect(await verifyPassword(hash, "")).toBe(false);
    expect(await hashPassword("correct horse battery")).not.toBe(hash);
  });

  it("never verify without a stored hash or against a broken one", async () => {
    expect(await verifyPassword(undefined, "anything")).toBe(false);
    expect(await verifyPassword(null, "anything")).toBe(false);
    expect(await verifyPassword("not-a-phc-string", "anything")).toBe(false);
  });

  it("do the same work for a missing account as for a wrong password: one argon2id verification with the same parameters", async () => {
    // The property behind equal timing, checked without a clock (a busy machine must not fail it);
    // the times themselves are compared by `npm run bench -- --only=auth`.
    const stored = await hashPassword("a-password-123");
    const expected = argon2Parameters(stored);
    expect(expected).toBe("argon2id m=19456,t=2,p=1");
    for (const missing of [undefined, null]) {
      const target = await hashToVerify(missing);
      expect(argon2Parameters(target), String(missing)).toBe(expected);
      // The decoy is made once, not per missing account (that would cost a hash on top).
      expect(await hashToVerify(missing)).toBe(target);
    }
    expect(await hashToVerify(stored)).toBe(stored);
    expect(argon2Parameters("not-a-phc-string")).toBeNull();
  });

  it("do not hash beyond the maximum length (a long input costs no more)", async () => {
    const long = "x".repeat(PASSWORD_MAX + 1);
    const hash = await hashPassword(long);
    // Only the first PASSWORD_MAX + 1 characters are looked at.
    expect(await verifyPassword(hash, `${long}${"y".repeat(10_000)}`)).toBe(true);
  });
});
