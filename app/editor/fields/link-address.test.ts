import { describe, expect, it } from "vitest";
import { isAllowedLinkAddress } from "./link-address";

describe("isAllowedLinkAddress", () => {
  it.each([
    "https://example.org",
    "http://example.org/a?b=c#d",
    "HTTPS://EXAMPLE.ORG",
    "  https://example.org  ",
    "mailto:praxis@example.org",
    "tel:+49301234567",
    "/ueber-uns",
    "/",
    "/en/practitioners?page=2",
  ])("accepts %s", (address) => {
    expect(isAllowedLinkAddress(address)).toBe(true);
  });

  it.each([
    "",
    "   ",
    "javascript:alert(1)",
    "JavaScript:alert(1)",
    "java\tscript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "vbscript:msgbox",
    "ftp://example.org",
    "//evil.example",
    "/\\evil.example",
    "https://",
    "https:example.org",
    "mailto:",
    "tel:",
    "example.org",
    "ueber-uns",
    "#top",
    "https://exa mple.org",
  ])("refuses %j", (address) => {
    expect(isAllowedLinkAddress(address)).toBe(false);
  });
});
