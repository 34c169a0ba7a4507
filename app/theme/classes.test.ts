import { describe, expect, it } from "vitest";
import { isValidClassToken, validateClassTokens } from "./classes";

describe("validateClassTokens", () => {
  it.each([
    "text-4xl",
    "md:text-5xl",
    "font-bold",
    "tracking-tight",
    "leading-relaxed",
    "uppercase",
    "hover:bg-main",
    "dark:text-white",
    "md:hover:focus:underline",
    "group-hover:text-accent",
    "max-md:hidden",
    "2xl:px-8",
    "-mt-2",
    "md:-translate-x-1/2",
    "w-1/2",
    "p-0.5",
    "space-y-1.5",
    "bg-main/50",
    "text-sm/6",
    "bg-main-12",
    "border-main--6",
    "sr-only",
  ])("accepts %s", (token) => {
    expect(isValidClassToken(token)).toBe(true);
  });

  it.each([
    "bg-[url(javascript:alert(1))]",
    "text-red-500;}body{display:none",
    "</style>",
    "<script>",
    "bg-[#fff]",
    "w-[calc(100%-1rem)]",
    "bg-(--my-var)",
    "[mask-type:luminance]",
    "data-[state=open]:block",
    "!text-red-500",
    "text-red-500!",
    "text-red-500!important",
    "@md:flex",
    "*:p-2",
    "text-\"red\"",
    "text-'red'",
    "a{color:red}",
    "Text-Red",
    "text--red",
    "bg-main-",
    "-",
    ":hover",
    "md:",
    "p-.5",
    "w-1/",
    "x".repeat(101),
  ])("refuses %s", (token) => {
    expect(isValidClassToken(token)).toBe(false);
  });

  it("splits on any whitespace, keeps order and drops duplicates", () => {
    expect(validateClassTokens("  text-4xl\n md:text-5xl\tfont-bold text-4xl bg-[red] bg-[red] ")).toEqual({
      valid: ["text-4xl", "md:text-5xl", "font-bold"],
      invalid: ["bg-[red]"],
    });
    expect(validateClassTokens("")).toEqual({ valid: [], invalid: [] });
  });

  it("accepts every demo text style", () => {
    const demo = "text-4xl md:text-5xl font-bold tracking-tight leading-tight text-xl italic font-serif text-xs tracking-widest";
    expect(validateClassTokens(demo).invalid).toEqual([]);
  });
});
