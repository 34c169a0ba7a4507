import { describe, expect, it } from "vitest";
import {
  assetQueryString,
  checkFileName,
  formatBytes,
  likePattern,
  MAX_PAGE,
  MAX_SEARCH_LENGTH,
  parseAssetQuery,
  ROOT_FOLDER,
  thumbnailUrl,
  typeLabel,
  uploadErrorMessage,
} from "./query";

const parse = (query: string) => parseAssetQuery(new URLSearchParams(query));

describe("parseAssetQuery", () => {
  it("reads search, folder and page", () => {
    expect(parse("q=%20Logo%20&folder=abc-1&page=3")).toEqual({ q: "Logo", folder: "abc-1", page: 3 });
  });

  it("falls back to the root, page 1 and no search when the parameters are missing", () => {
    expect(parse("")).toEqual({ q: "", folder: ROOT_FOLDER, page: 1 });
  });

  it("tames hostile pages: negative, fractional, huge, not a number", () => {
    for (const page of ["-1", "0", "1.5", "1e9", "NaN", "abc", "<script>", "9999999999999999999"]) expect(parse(`page=${encodeURIComponent(page)}`).page).toBe(1);
    expect(parse("page=999999").page).toBe(MAX_PAGE);
  });

  it("refuses folder ids that could be paths or markup", () => {
    for (const folder of ["..", "../etc", "a/b", "<img src=x>", ".hidden", "x".repeat(101), "a b"]) expect(parse(`folder=${encodeURIComponent(folder)}`).folder).toBe(ROOT_FOLDER);
  });

  it("strips control characters from the search and cuts it", () => {
    expect(parse(`q=${encodeURIComponent("a\u0000b\nc")}`).q).toBe("abc");
    expect(parse(`q=${"x".repeat(500)}`).q).toHaveLength(MAX_SEARCH_LENGTH);
  });

  it("round-trips through assetQueryString, defaults left out", () => {
    const query = { q: "100% _rabatt", folder: "f1", page: 2 };
    expect(parseAssetQuery(new URLSearchParams(assetQueryString(query).slice(1)))).toEqual(query);
    expect(assetQueryString({ q: "", folder: ROOT_FOLDER, page: 1 })).toBe("");
  });
});

describe("likePattern", () => {
  it("takes LIKE wildcards and the escape character literally", () => {
    expect(likePattern("50%_Off\\")).toBe("%50\\%\\_off\\\\%");
  });
});

describe("checkFileName", () => {
  it("accepts a normal name, trimmed", () => {
    expect(checkFileName("  Praxis Foto.png ")).toEqual({ ok: true, fileName: "Praxis Foto.png" });
  });

  it("refuses empty, too long, path-like and control-character names", () => {
    expect(checkFileName("   ")).toEqual({ ok: false, reason: "empty" });
    expect(checkFileName("a".repeat(201))).toEqual({ ok: false, reason: "tooLong" });
    for (const name of ["../x.png", "a\\b.png", "a\u0000.png", "line\nbreak.png", "..", "."]) expect(checkFileName(name)).toMatchObject({ ok: false, reason: "invalid" });
  });

  it("gives the same answer when asked twice (no regex state carried over)", () => {
    expect(checkFileName("a\u0001.png").ok).toBe(false);
    expect(checkFileName("a\u0001.png").ok).toBe(false);
  });

  it("keeps markup as text: it is not a path, so it is a valid name", () => {
    expect(checkFileName("<img src=x onerror=alert(1)>.png")).toEqual({ ok: true, fileName: "<img src=x onerror=alert(1)>.png" });
  });
});

describe("display helpers", () => {
  it("formats sizes per language", () => {
    expect(formatBytes(512, "de")).toBe("512 B");
    expect(formatBytes(2048, "en")).toBe("2 kB");
    expect(formatBytes(1.5 * 1024 * 1024, "de")).toBe("1,5 MB");
    expect(formatBytes(1.5 * 1024 * 1024, "en")).toBe("1.5 MB");
  });

  it("labels types by extension, else by MIME subtype", () => {
    expect(typeLabel("bericht.pdf", "application/pdf")).toBe("PDF");
    expect(typeLabel("README", "text/plain")).toBe("PLAIN");
    expect(typeLabel("logo.", "image/svg+xml")).toBe("SVG");
    expect(typeLabel("x.<script>", "application/json")).toBe("JSON");
  });

  it("asks for a scaled variant only for raster images, and encodes the path", () => {
    expect(thumbnailUrl({ id: "a1", slug: "foto.png", mimeType: "image/png" })).toBe("/api/assets/a1/foto.png?width=320");
    expect(thumbnailUrl({ id: "a1", slug: "logo.svg", mimeType: "image/svg+xml" })).toBe("/api/assets/a1/logo.svg");
    expect(thumbnailUrl({ id: "a b", slug: "x?y", mimeType: "image/gif" })).toBe("/api/assets/a%20b/x%3Fy");
  });
});

describe("uploadErrorMessage", () => {
  const fallback = (status: number) => `failed (${status})`;

  it("uses the Squidex error body's message and details", () => {
    expect(uploadErrorMessage(400, JSON.stringify({ message: "Validation error", details: ["file: too big"], statusCode: 400 }), fallback)).toBe("Validation error file: too big");
  });

  it("falls back to the status for empty, non-JSON and odd bodies", () => {
    expect(uploadErrorMessage(502, "<html>Bad gateway</html>", fallback)).toBe("failed (502)");
    expect(uploadErrorMessage(403, JSON.stringify({ message: "", statusCode: 403 }), fallback)).toBe("failed (403)");
    expect(uploadErrorMessage(500, JSON.stringify({ message: 42, details: "x" }), fallback)).toBe("failed (500)");
    expect(uploadErrorMessage(0, "", fallback)).toBe("failed (0)");
  });
});
