import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { sealInlineScripts } from "./inline-scripts.server";

const sha = (text: string) => createHash("sha256").update(text, "utf8").digest("base64");

describe("sealInlineScripts", () => {
  it("hashes the marked inline scripts and takes the marker off", () => {
    const html = `<head><link rel="modulepreload" href="/a.js" nonce="M1"/></head><body><script nonce="M1">window.x = "ü";</script><script type="module" async="" nonce="M1">import "/b.js";</script><script src="/c.js" nonce="M1"></script></body>`;
    const { html: out, hashes } = sealInlineScripts(html, "M1");
    expect(out).not.toContain("M1");
    expect(out).toContain(`<script>window.x = "ü";</script>`);
    expect(hashes).toEqual([sha(`window.x = "ü";`), sha(`import "/b.js";`)]);
  });

  it("leaves scripts without the marker out of the hashes (they stay blocked)", () => {
    const html = `<p><script>alert(1)</script></p><script nonce="other">alert(2)</script><script nonce="M">ok()</script>`;
    const { hashes, html: out } = sealInlineScripts(html, "M");
    expect(hashes).toEqual([sha("ok()")]);
    expect(out).toContain(`<script nonce="other">alert(2)</script>`);
  });

  it("hashes a script once even when it appears twice, and copes with no scripts", () => {
    expect(sealInlineScripts(`<script nonce="M">a()</script><script nonce="M">a()</script>`, "M").hashes).toEqual([sha("a()")]);
    expect(sealInlineScripts("<p>plain</p>", "M")).toEqual({ html: "<p>plain</p>", hashes: [] });
  });
});
