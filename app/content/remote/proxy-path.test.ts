import { describe, expect, it } from "vitest";
import { ContentError } from "../errors";
import { checkProxyTarget, MAX_PATH_BYTES, MAX_QUERY_BYTES, type ProxyTarget } from "./proxy-path";

const MOUNT = "/api/squidex";
const check = (method: string, target: string) => checkProxyTarget(method, target, MOUNT, "praxisnetz");
const ok = (method: string, target: string): ProxyTarget => {
  const result = check(method, target);
  if (result instanceof ContentError) throw new Error(`${method} ${target} refused: ${result.statusCode} ${result.message}`);
  return result;
};
const status = (method: string, target: string) => {
  const result = check(method, target);
  return result instanceof ContentError ? result.statusCode : 200;
};
const ID = "0b6f3e4c-2f7a-4e55-9a51-3f1c2d4b5a60";

describe("the content proxy's allow-list", () => {
  it("passes each listed call, the path rebuilt from the checked segments", () => {
    expect(ok("POST", "/api/squidex/identity-server/connect/token").kind).toBe("token");
    expect(ok("GET", "/api/squidex/api/content/praxisnetz/core-pages?$top=5&$filter=data%2Fslug%2Fiv%20eq%20'x'")).toEqual({
      kind: "query-contents",
      method: "GET",
      path: "api/content/praxisnetz/core-pages",
      query: { $top: "5", $filter: "data/slug/iv eq 'x'" },
      schema: "core-pages",
    });
    expect(ok("POST", "/api/squidex/api/content/praxisnetz/core-pages?publish=true")).toMatchObject({ kind: "create-content", query: { publish: "true" } });
    expect(ok("GET", `/api/squidex/api/content/praxisnetz/core-pages/${ID}`)).toMatchObject({ kind: "get-content", id: ID, path: `api/content/praxisnetz/core-pages/${ID}` });
    expect(ok("PUT", `/api/squidex/api/content/praxisnetz/core-pages/${ID}`).kind).toBe("update-content");
    expect(ok("PATCH", `/api/squidex/api/content/praxisnetz/core-pages/${ID}`).kind).toBe("patch-content");
    expect(ok("DELETE", `/api/squidex/api/content/praxisnetz/core-pages/${ID}`).kind).toBe("delete-content");
    expect(ok("POST", "/api/squidex/api/content/praxisnetz/graphql").kind).toBe("graphql");
    expect(ok("GET", "/api/squidex/api/content/praxisnetz/graphql?query=%7B%20x%20%7D")).toMatchObject({ kind: "graphql", query: { query: "{ x }" } });
    expect(ok("GET", "/api/squidex/api/apps/praxisnetz/schemas/block-hero")).toMatchObject({ kind: "get-schema", path: "api/apps/praxisnetz/schemas/block-hero" });
    expect(ok("GET", `/api/squidex/api/apps/praxisnetz/assets/${ID}`).kind).toBe("get-asset");
    expect(ok("DELETE", `/api/squidex/api/apps/praxisnetz/assets/${ID}`).kind).toBe("delete-asset");
    expect(ok("POST", "/api/squidex/api/apps/praxisnetz/assets/").kind).toBe("upload-asset");
    expect(ok("POST", "/api/squidex/api/apps/praxisnetz/assets").kind).toBe("upload-asset");
    // Fixed words in any case (ASP.NET routes so), sent on in Squidex's.
    expect(ok("GET", "/API/Squidex/API/Content/praxisnetz/core-pages").path).toBe("api/content/praxisnetz/core-pages");
  });

  it("refuses every way out of the listed paths and hosts", () => {
    const attempts: Array<[string, string]> = [
      ["GET", "/api/squidex/api/content/praxisnetz/../../../etc/passwd"],
      ["GET", "/api/squidex/api/content/praxisnetz/core-pages/.."],
      ["GET", "/api/squidex/api/content/praxisnetz/./core-pages"],
      ["GET", "/api/squidex/api/content/praxisnetz/%2e%2e/%2e%2e/api/apps/praxisnetz/clients"],
      ["GET", "/api/squidex/api/content/praxisnetz/%2E%2E"],
      ["GET", "/api/squidex/api/content/praxisnetz/.%2e/x"],
      ["GET", "/api/squidex/api/content/praxisnetz/core-pages%2f..%2f..%2fapps"],
      ["GET", "/api/squidex/api/content/praxisnetz/core-pages%2F1"],
      ["GET", "/api/squidex/api/content/praxisnetz/core-pages%5c..%5capps"],
      ["GET", "/api/squidex/api/content/praxisnetz\\..\\..\\apps"],
      ["GET", "/api/squidex//evil.example/api/content/praxisnetz/core-pages"],
      ["GET", "/api/squidex/api//content/praxisnetz/core-pages"],
      ["GET", "//evil.example/api/squidex/api/content/praxisnetz/core-pages"],
      ["GET", "http://evil.example/api/squidex/api/content/praxisnetz/core-pages"],
      ["GET", "/api/squidex/http://evil.example/api/content/praxisnetz/core-pages"],
      ["GET", "/api/squidex/https:%2f%2fevil.example/api"],
      ["GET", "/api/squidex/api/content/praxisnetz/core-pages%00"],
      ["GET", "/api/squidex/api/content/praxisnetz/core-pages%0d%0aHost:%20evil"],
      ["GET", "/api/squidex/api/content/praxisnetz/core pages"],
      ["GET", "/api/squidex/api/content/praxisnetz/core-pages%"],
      ["GET", "/api/squidex/api/content/praxisnetz/core-pages%zz"],
      ["GET", "/api/squidex/api/content/praxisnetz/core-pages%252e%252e"],
      ["GET", "/api/squidex/api/content/praxisnetz/core-pages#frag"],
      ["GET", `/api/squidex/api/content/praxisnetz/${"a".repeat(MAX_PATH_BYTES)}`],
      ["GET", `/api/squidex/api/content/praxisnetz/core-pages?$filter=${"a".repeat(MAX_QUERY_BYTES)}`],
      ["GET", "/api/squidex/api/content/other-app/core-pages"],
      ["GET", "/api/squidex/api/content/PRAXISNETZ/core-pages"],
      ["GET", "/api/squidex/api/content/praxisnetz/Core_Pages"],
      ["GET", "/api/squidex/api/content/praxisnetz/core-pages/not:an:id"],
      ["GET", "/api/squidex/api/apps/praxisnetz/clients"],
      ["GET", "/api/squidex/api/apps/praxisnetz/contributors"],
      ["GET", "/api/squidex/api/apps/praxisnetz/schemas"],
      ["PUT", "/api/squidex/api/apps/praxisnetz/schemas/core-pages"],
      ["GET", "/api/squidex/api/apps/praxisnetz/assets"],
      ["GET", "/api/squidex/api/rules"],
      ["GET", "/api/squidex/api/apps"],
      ["GET", "/api/squidex/api/users"],
      ["GET", "/api/squidex/api/ping"],
      ["POST", "/api/squidex/api/content/praxisnetz/core-pages/bulk"],
      ["POST", `/api/squidex/api/content/praxisnetz/core-pages/${ID}`],
      ["PUT", `/api/squidex/api/content/praxisnetz/core-pages/${ID}/status`],
      ["GET", "/api/squidex/identity-server/connect/token"],
      ["GET", "/api/squidex/identity-server/connect/authorize"],
      ["GET", "/api/squidexevil/api/content/praxisnetz/core-pages"],
      ["GET", "/api/squidex"],
      ["GET", "/api/squidex/api/content/praxisnetz/core-pages?$top=1&$top=2"],
      ["GET", "/api/squidex/api/content/praxisnetz/core-pages?url=http://evil.example"],
      ["POST", "/api/squidex/api/content/praxisnetz/core-pages?publish=true&redirect=1"],
      ["GET", "/api/squidex/api/content/praxisnetz/core-pages?q=%zz"],
    ];
    expect(attempts.length).toBeGreaterThanOrEqual(40);
    for (const [method, target] of attempts) {
      const code = status(method, target);
      expect(code >= 400 && code < 500, `${method} ${target.slice(0, 120)} → ${code}`).toBe(true);
    }
  });

  it("says why, in an ErrorDto, with the fitting status", () => {
    const refusal = check("GET", "/api/squidex/api/content/praxisnetz/%2e%2e/x") as ContentError;
    expect(refusal.toJSON()).toMatchObject({ statusCode: 400, message: "Encoded dots are not accepted in the path." });
    expect(status("GET", "/api/squidex/api/rules")).toBe(404);
    expect(status("GET", "/api/squidex/api/content/other/core-pages")).toBe(404);
    expect(status("HEAD", "/api/squidex/api/apps/praxisnetz/schemas/core-pages")).toBe(405);
    expect(status("GET", `/api/squidex/api/content/praxisnetz/${"a".repeat(2000)}`)).toBe(414);
  });

  it("never yields a path that leaves the API: every segment is a fixed word or of Squidex's characters", () => {
    const targets = [
      "/api/squidex/api/content/praxisnetz/core-pages",
      `/api/squidex/api/content/praxisnetz/core-pages/${ID}`,
      "/api/squidex/api/apps/praxisnetz/schemas/block-hero",
      `/api/squidex/api/apps/praxisnetz/assets/${ID}`,
    ];
    for (const target of targets) {
      const { path } = ok("GET", target);
      expect(new URL(path, "https://squidex.example/base/").href.startsWith("https://squidex.example/base/api/")).toBe(true);
      expect(path).toMatch(/^[a-z0-9/_-]+$/i);
    }
  });
});
