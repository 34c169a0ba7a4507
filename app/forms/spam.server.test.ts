import { describe, expect, it } from "vitest";
import { TokenSigner } from "~/lib/tokens.server";
import { checkSpam, DEFAULT_MAX_AGE_SECONDS, formStamp, HONEYPOT_FIELD, readStamp, STAMP_FIELD } from "./spam.server";

const signer = new TokenSigner(Buffer.alloc(32, 7));
const t0 = Date.UTC(2026, 0, 15, 9, 0, 0);
const form = { requireStamp: true };
const api = { requireStamp: false };

describe("the spam guard", () => {
  it("names its fields plausibly", () => {
    expect(HONEYPOT_FIELD).toBe("website_url");
    expect(STAMP_FIELD).toBe("form_stamp");
  });

  it("passes a person: empty honeypot, stamp a few seconds old", () => {
    const stamp = formStamp(signer, t0);
    expect(checkSpam({ honeypot: "", stamp }, signer, t0 + 3_000, form)).toBeNull();
    expect(checkSpam({ honeypot: null, stamp }, signer, t0 + 60_000, form)).toBeNull();
    expect(checkSpam({ stamp }, signer, t0 + 60_000, api)).toBeNull();
  });

  it("refuses a filled honeypot, before anything else", () => {
    expect(checkSpam({ honeypot: "https://spam.example", stamp: formStamp(signer, t0) }, signer, t0 + 60_000, form)).toBe("honeypot");
    expect(checkSpam({ honeypot: "x" }, signer, t0, api)).toBe("honeypot");
    // Whitespace is not a bot's doing worth refusing a person for.
    expect(checkSpam({ honeypot: "  ", stamp: formStamp(signer, t0) }, signer, t0 + 60_000, form)).toBeNull();
  });

  it("refuses a form sent faster than the minimum fill time", () => {
    const stamp = formStamp(signer, t0);
    expect(checkSpam({ stamp }, signer, t0, form)).toBe("too-fast");
    expect(checkSpam({ stamp }, signer, t0 + 2_999, form)).toBe("too-fast");
    expect(checkSpam({ stamp }, signer, t0 + 2_999, api)).toBe("too-fast");
    expect(checkSpam({ stamp }, signer, t0 + 4_000, form)).toBeNull();
    expect(checkSpam({ stamp }, signer, t0 + 4_000, { ...form, minSeconds: 5 })).toBe("too-fast");
    // Another node's clock a little ahead: still "just now".
    expect(checkSpam({ stamp }, signer, t0 - 1_000, form)).toBe("too-fast");
  });

  it("lets an old stamp through: cached pages and open tabs carry old stamps", () => {
    const stamp = formStamp(signer, t0);
    const later = t0 + (DEFAULT_MAX_AGE_SECONDS + 60) * 1000;
    expect(readStamp(stamp, signer, later)).toEqual({ kind: "stale" });
    expect(checkSpam({ stamp }, signer, later, form)).toBeNull();
    expect(readStamp(stamp, signer, t0 + 10_000, 5)).toEqual({ kind: "stale" });
    expect(readStamp(stamp, signer, t0 + 10_000)).toEqual({ kind: "fresh", seconds: 10 });
    // A clock that jumped back says nothing about the visitor.
    expect(checkSpam({ stamp }, signer, t0 - 10 * 60_000, form)).toBeNull();
  });

  it("refuses stamps it did not sign, and a browser form without one", () => {
    const stamp = formStamp(signer, t0);
    const other = formStamp(new TokenSigner(Buffer.alloc(32, 8)), t0);
    expect(checkSpam({ stamp: other }, signer, t0 + 60_000, form)).toBe("stamp-invalid");
    expect(checkSpam({ stamp: other }, signer, t0 + 60_000, api)).toBe("stamp-invalid");
    expect(checkSpam({ stamp: `${stamp}x` }, signer, t0 + 60_000, form)).toBe("stamp-invalid");
    expect(checkSpam({ stamp: "garbage" }, signer, t0 + 60_000, form)).toBe("stamp-invalid");
    // Another purpose's token (a newsletter link) is no stamp, even with a time as its subject.
    expect(checkSpam({ stamp: signer.sign("newsletter-confirm", String(t0), null) }, signer, t0 + 60_000, form)).toBe("stamp-invalid");
    expect(checkSpam({ stamp: signer.sign("form-stamp", "not-a-time", null) }, signer, t0 + 60_000, form)).toBe("stamp-invalid");
    expect(checkSpam({}, signer, t0, form)).toBe("stamp-invalid");
    expect(checkSpam({ stamp: "" }, signer, t0, form)).toBe("stamp-invalid");
    // An API client never saw the form: no stamp is fine.
    expect(checkSpam({}, signer, t0, api)).toBeNull();
    expect(checkSpam({ stamp: null }, signer, t0, api)).toBeNull();
  });

  it("signs the time itself: a stamp cannot be backdated", () => {
    const stamp = formStamp(signer, t0);
    const [body, mac] = stamp.split(".");
    const forged = Buffer.from(JSON.stringify(["form-stamp", String(t0 - 60_000), null])).toString("base64url");
    expect(body).not.toBe(forged);
    expect(checkSpam({ stamp: `${forged}.${mac}` }, signer, t0 + 1_000, form)).toBe("stamp-invalid");
  });
});
