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

  // Issue 22, point 6: mail that waits in the outbox for good is not called sent.
  it("say an invitation is in the outbox, not sent, without mail delivery; sent with it", async () => {
    const without = await invite(withoutMail, "waiting@example.com");
    expect(without.body).toContain("liegt im Postausgang");
    expect(without.body).not.toContain("verschickt.");
    const withIt = await invite(withMail, "going@example.com");
    expect(withIt.body).toContain("Einladung an going@example.com verschickt.");
    expect(withIt.body).not.toContain("liegt im Postausgang");
  });

  it("the dashboard, outbox and users screens say plainly when mail delivery is not set up, and only then", async () => {
    for (const [server, shown] of [[withoutMail, true], [withMail, false]] as const) {
      const cookie = await signIn(server, DEMO_ADMIN.email, DEMO_ADMIN.password);
      for (const path of ["/manage", "/manage/outbox", "/manage/users"]) {
        const res = await fetch(`${server.url}${path}`, { headers: { cookie } });
        const html = await res.text();
        expect(res.status, path).toBe(200);
        expect(html.includes("data-mail-off"), `${path} ${shown ? "says" : "does not say"} mail is off`).toBe(shown);
        if (shown) expect(html).toContain("Der E-Mail-Versand ist nicht eingerichtet");
      }
    }
  });
});
