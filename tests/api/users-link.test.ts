import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_ADMIN, postForm, signIn } from "../support/auth";
import { startServer, type RunningServer } from "../support/server";

/**
 * Issue 20, finding 1: no one reads a live set-password link in the admin area. The superuser who
 * invites or resets sees the link only where no mail can carry it (no SMTP_URL); with mail
 * delivery, the answer holds no link (and the outbox masks it, tests/api/outbox-secrets.test.ts).
 */
describe("the users screen's set-password links", () => {
  let withMail: RunningServer;
  let withoutMail: RunningServer;

  beforeAll(async () => {
    // Delivery to a closed port fails and is retried later: the mail stays in the outbox.
    [withMail, withoutMail] = await Promise.all([startServer({ env: { SMTP_URL: "smtp://127.0.0.1:9" } }), startServer()]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([withMail?.stop(), withoutMail?.stop()]);
  });

  const invite = async (server: RunningServer, email: string) => {
    const cookie = await signIn(server, DEMO_ADMIN.email, DEMO_ADMIN.password);
    const res = await postForm(server, "/manage/users", { intent: "invite", email, name: "Chefin", superuser: "on" }, cookie);
    return { status: res.status, body: await res.text() };
  };

  it("are not shown when mail is delivered, for an invitation of a superuser", async () => {
    const { status, body } = await invite(withMail, "boss@example.com");
    expect(status).toBe(201);
    expect(body).not.toContain("login?token=");
    expect(body).not.toContain("data-set-password-link");
  });

  it("are shown to the inviting superuser alone where no mail can carry them", async () => {
    const { status, body } = await invite(withoutMail, "boss@example.com");
    expect(status).toBe(201);
    expect(body).toContain("data-set-password-link");
    expect(body).toContain("Es ist kein E-Mail-Versand eingerichtet");
  });
});
