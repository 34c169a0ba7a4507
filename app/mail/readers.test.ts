import { describe, expect, it } from "vitest";
import { TokenSigner, type TokenPurpose } from "~/lib/tokens.server";
import { maskLinkSecrets, MASKED_SECRET, mayReadKind } from "./readers";

describe("outbox readers", () => {
  const signer = new TokenSigner(TokenSigner.newKey());
  const purposes: TokenPurpose[] = ["newsletter-confirm", "newsletter-unsubscribe", "present", "registration", "booking-cancel", "form-stamp", "set-password"];

  it("masks the token of every purpose, in a link, in HTML and in a header, and keeps the rest", () => {
    for (const purpose of purposes) {
      for (const subject of ["a@b.c", "0b6e8a8e-3c1f-4f7e-9d2a-1c2b3d4e5f60.7", "x"]) {
        const token = signer.sign(purpose, subject, purpose === "set-password" ? 3600 : null);
        const text = `Öffnen: https://praxis.example/login?token=${encodeURIComponent(token)}\n<a href="https://x.example/n?confirm=${token}&amp;a=1">x</a>\n<https://x.example/u?token=${token}>`;
        const masked = maskLinkSecrets(text);
        expect(masked, purpose).not.toContain(token.slice(token.indexOf(".") + 1));
        expect(masked).toBe(text.split(token).join(MASKED_SECRET));
      }
    }
    expect(maskLinkSecrets("Termin am 03.12. um 10.30 Uhr, Dr. Weber")).toBe("Termin am 03.12. um 10.30 Uhr, Dr. Weber");
  });

  it("lets editors read the visitor flows' mails and nothing else", () => {
    const editor = { superuser: false };
    for (const kind of ["booking-confirmation", "booking-cancellation", "newsletter-confirm", "newsletter-welcome", "registration-received", "registration-finished", "registration-approved", "registration-rejected"]) expect(mayReadKind(editor, kind), kind).toBe(true);
    for (const kind of ["user-invite", "user-reset", "something-new"]) expect(mayReadKind(editor, kind), kind).toBe(false);
    expect(mayReadKind({ superuser: true }, "user-invite")).toBe(true);
  });
});
