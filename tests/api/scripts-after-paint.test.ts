import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../support/server";

/**
 * A visitor's page asks for its scripts after its first paint (app/lib/scripts-after-paint.server.ts):
 * no modulepreload links in its HTML, and React Router's module script waits for a painted frame
 * before it adds them and imports the route modules. The admin area keeps React Router's output.
 */
describe("visitor pages load their scripts after the first paint", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  const moduleScript = (html: string) => {
    const m = /<script type="module"[^>]*>([\s\S]*?)<\/script>/.exec(html);
    expect(m, "a module script").not.toBeNull();
    return m![1]!;
  };

  for (const path of ["/", "/en", "/ueber-uns", "/practitioners", "/en/practitioners/juergen-weiss"]) {
    it(`${path}: no preload links, a gate before the imports, admitted by the policy, every chunk there`, async () => {
      const res = await fetch(`${server.url}${path}`);
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).not.toContain('rel="modulepreload"');
      const code = moduleScript(html);
      // The wait comes first; React Router's static imports are gone, its manifest and entry import stay.
      expect(code.startsWith("await new Promise((go) =>")).toBe(true);
      expect(code).toContain("requestAnimationFrame");
      expect(code).not.toMatch(/^import \* as/m);
      expect(code).toMatch(/const \[route0(, route\d+)*\] = await Promise\.all\(\[import\("\/assets\/root-[^"]+\.js"\)/);
      expect(code).toContain("window.__reactRouterRouteModules");
      expect(code).toMatch(/\nimport\("\/assets\/entry\.client-[^"]+\.js"\);$/);
      // The changed script is the one the policy admits (hashed after the change).
      const hash = createHash("sha256").update(code, "utf8").digest("base64");
      expect(res.headers.get("content-security-policy")).toContain(`'sha256-${hash}'`);
      // The preloads it adds after the paint are the page's chunks, and each is served.
      const preloads = JSON.parse(/for \(const href of (\[[^\]]*\])\)/.exec(code)![1]!) as string[];
      expect(preloads.some((p) => p.startsWith("/assets/entry.client-"))).toBe(true);
      for (const href of preloads) expect((await fetch(`${server.url}${href}`)).status, href).toBe(200);
    });
  }

  it("leaves the sign-in page as React Router writes it: its scripts at once", async () => {
    const html = await (await fetch(`${server.url}/login`)).text();
    expect(html).toContain('rel="modulepreload"');
    expect(moduleScript(html)).toMatch(/^;?\s*import \* as route0 from/);
  });
});
