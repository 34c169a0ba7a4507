import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { squidexToken, startServer, type RunningServer } from "../support/server";

/**
 * Third-party scripts wait for consent (issue 24): the server puts a script into a page, and its
 * origin into that page's CSP, only for a category the visitor allowed; taking it back removes
 * both and deletes the cookies others left; every choice is recorded without personal data.
 */
describe("consent gates third-party scripts", () => {
  let server: RunningServer;
  let thirdParty: http.Server;
  let tpOrigin = "";
  beforeAll(async () => {
    thirdParty = http.createServer((_req, res) => res.writeHead(200, { "content-type": "text/javascript" }).end("window.__tp = true;"));
    await new Promise<void>((r) => thirdParty.listen(0, "127.0.0.1", r));
    tpOrigin = `http://127.0.0.1:${(thirdParty.address() as AddressInfo).port}`;
    server = await startServer();
    const token = await squidexToken(server);
    const api = `${server.url}/api/squidex/api/content/praxisnetz/core-global-settings`;
    const auth = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const { items } = (await (await fetch(api, { headers: auth })).json()) as { items: { id: string }[] };
    const res = await fetch(`${api}/${items[0]!.id}`, {
      method: "PATCH",
      headers: auth,
      body: JSON.stringify({
        thirdPartyScripts: {
          iv: [
            { name: "plausible", src: "/js/script.js", category: "statistic", consentServiceId: "plausible" },
            { name: "Werbepixel", src: `${tpOrigin}/tp.js`, category: "marketing" },
          ],
        },
      }),
    });
    expect(res.status).toBe(200);
  });
  afterAll(async () => {
    await server?.stop();
    await new Promise<void>((r) => thirdParty.close(() => r()));
  });

  const page = async (cookie?: string) => {
    const res = await fetch(`${server.url}/ueber-uns`, { headers: cookie ? { cookie } : {} });
    return { html: await res.text(), csp: res.headers.get("content-security-policy") ?? "" };
  };

  it("before consent and with other categories: neither the script nor its origin", async () => {
    for (const cookie of [undefined, "pn_consent=necessary", "pn_consent=functional%2Cstatistic"]) {
      const { html, csp } = await page(cookie);
      expect(html, cookie).not.toContain(tpOrigin);
      expect(csp, cookie).not.toContain(tpOrigin);
      // The site's own statistics entry is the site's to run, never a script tag.
      expect(html).not.toContain("/js/script.js");
    }
  });

  it("with its category allowed: the script in the head, its origin admitted for scripts, requests and images only", async () => {
    const { html, csp } = await page("pn_consent=marketing");
    const head = html.slice(0, html.indexOf("</head>"));
    expect(head).toContain(`<script src="${tpOrigin}/tp.js" async=""`);
    const directive = (name: string) => csp.split("; ").find((d) => d.startsWith(`${name} `)) ?? "";
    expect(directive("script-src")).toContain(tpOrigin);
    expect(directive("connect-src")).toContain(tpOrigin);
    expect(directive("img-src")).toContain(tpOrigin);
    expect(directive("default-src")).toBe("default-src 'self'");
    expect(directive("frame-ancestors")).not.toContain(tpOrigin);
  });

  it("a withdrawal deletes the cookies others left (ours stay), records the choice without personal data", async () => {
    const res = await fetch(`${server.url}/api/consent`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url, cookie: "pn_consent=marketing; tp_id=42; _ga=GA1", "user-agent": "Consent-Test-Agent/1.0" },
      body: new URLSearchParams({ intent: "necessary", language: "de", redirectTo: "/ueber-uns" }),
    });
    expect(res.status).toBe(303);
    const cookies = res.headers.getSetCookie();
    expect(cookies).toContain("tp_id=; Path=/; Max-Age=0; SameSite=Lax");
    expect(cookies).toContain("_ga=; Path=/; Max-Age=0; SameSite=Lax");
    expect(cookies.some((c) => c.startsWith("pn_consent=necessary;"))).toBe(true);
    const proof = cookies.find((c) => c.startsWith("pn_consent_proof="))!;
    const id = proof.slice("pn_consent_proof=".length, proof.indexOf(";"));
    expect(id).toMatch(/^[0-9a-f-]{36}$/);

    const db = new Database(path.join(server.dataDir, "praxisnetz.sqlite"), { readonly: true });
    try {
      const row = db.prepare("select * from consent_records where id = ?").get(id) as Record<string, string>;
      expect(row).toMatchObject({ id, categories: "necessary" });
      expect(row.text_version).toMatch(/^[0-9a-f]{16}$/);
      expect(Date.parse(String(row.at))).not.toBeNaN();
      expect(Object.keys(row).sort()).toEqual(["at", "categories", "id", "text_version"]);
      expect(JSON.stringify(row)).not.toMatch(/127\.0\.0\.1|Consent-Test-Agent/);
    } finally {
      db.close();
    }

    // Granting more takes nothing back: no deletions.
    const grant = await fetch(`${server.url}/api/consent`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url, cookie: "pn_consent=necessary; tp_id=42" },
      body: new URLSearchParams({ intent: "all", language: "de" }),
    });
    expect(grant.headers.getSetCookie().some((c) => c.startsWith("tp_id="))).toBe(false);
    const after = await page("pn_consent=necessary");
    expect(after.html).not.toContain(tpOrigin);
  });

  it("unknown categories in a posted form are ignored, not stored", async () => {
    const res = await fetch(`${server.url}/api/consent`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url },
      body: "intent=save&category=statistic&category=%3Cscript%3E&language=de",
    });
    expect(res.status).toBe(303);
    expect(res.headers.getSetCookie().find((c) => c.startsWith("pn_consent="))).toMatch(/^pn_consent=statistic;/);
  });

  it("a script posting choices in a loop still gets its choice, but fills no table: at most 200 records an hour per address", async () => {
    const post = () =>
      fetch(`${server.url}/api/consent`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url },
        body: "intent=all&language=de",
      });
    let last: Response | undefined;
    for (let i = 0; i < 210; i++) last = await post();
    expect(last!.status).toBe(303);
    const cookies = last!.headers.getSetCookie();
    expect(cookies.some((c) => c.startsWith("pn_consent=functional%2Cmarketing%2Cstatistic%2Cunclassified;"))).toBe(true);
    expect(cookies.some((c) => c.startsWith("pn_consent_proof="))).toBe(false);
    const db = new Database(path.join(server.dataDir, "praxisnetz.sqlite"), { readonly: true });
    try {
      expect((db.prepare("select count(*) as n from consent_records").get() as { n: number }).n).toBeLessThanOrEqual(200);
    } finally {
      db.close();
    }
  });
});
