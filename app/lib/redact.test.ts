import { describe, expect, it } from "vitest";
import { redactUrl } from "./redact";

describe("redactUrl", () => {
  it("hides the address after /newsletter/ and /present/, with or without a language prefix", () => {
    expect(redactUrl("/newsletter/anna%40example.org")).toBe("/newsletter/[redacted]");
    expect(redactUrl("/en/present/anna@example.org")).toBe("/en/present/[redacted]");
    expect(redactUrl("/de/newsletter/anna@example.org/")).toBe("/de/newsletter/[redacted]/");
    // Not an address at all: still hidden (the route takes whatever is there).
    expect(redactUrl("/present/not-an-address")).toBe("/present/[redacted]");
    // Spelled with escapes or in capitals, it is the same route.
    expect(redactUrl("/%6Eewsletter/x")).toBe("/%6Eewsletter/[redacted]");
    expect(redactUrl("/NEWSLETTER/x")).toBe("/NEWSLETTER/[redacted]");
  });

  it("keeps the API's own action names and everything without private data", () => {
    expect(redactUrl("/api/newsletter/subscribe")).toBe("/api/newsletter/subscribe");
    expect(redactUrl("/en/practitioners/anna-muster?page=2")).toBe("/en/practitioners/anna-muster?page=2");
    expect(redactUrl("/")).toBe("/");
    expect(redactUrl("")).toBe("");
  });

  it("tolerates missing segments and garbage", () => {
    expect(redactUrl("/newsletter")).toBe("/newsletter");
    expect(redactUrl("/newsletter/")).toBe("/newsletter/");
    expect(redactUrl("/newsletter/%E0%A4%A")).toBe("/newsletter/[redacted]");
    expect(redactUrl("/x/%zz?%zz=%&token")).toBe("/x/%zz?%zz=%&token");
    expect(redactUrl("?token=abc")).toBe("?token=[redacted]");
    expect(redactUrl(undefined as unknown as string)).toBe("");
  });

  it("hides the values of token and email, however the name is spelled, and keeps the rest as written", () => {
    expect(redactUrl("/appointments/cancel?token=abc.def&lang=en")).toBe("/appointments/cancel?token=[redacted]&lang=en");
    expect(redactUrl("/x?EMAIL=a%40b.de&%74oken=t&q=a+b%20c")).toBe("/x?EMAIL=[redacted]&%74oken=[redacted]&q=a+b%20c");
    expect(redactUrl("/x?token=a&token=b")).toBe("/x?token=[redacted]&token=[redacted]");
    expect(redactUrl("/x?token=")).toBe("/x?token=");
  });

  it("hides addresses wherever they turn up", () => {
    expect(redactUrl("/typo/anna@example.org")).toBe("/typo/[redacted]");
    expect(redactUrl("/x?ref=anna%40example.org")).toBe("/x?ref=[redacted]");
  });

  it("handles absolute URLs: origin kept, user info and fragment hidden", () => {
    expect(redactUrl("https://praxis.example/en/newsletter/a%40b.de?token=t#top")).toBe("https://praxis.example/en/newsletter/[redacted]?token=[redacted]#[redacted]");
    expect(redactUrl("http://user:pw@host:8080/present/a@b")).toBe("http://[redacted]@host:8080/present/[redacted]");
    expect(redactUrl("http://host")).toBe("http://host");
  });
});
