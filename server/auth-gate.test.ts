import { describe, expect, it } from "vitest";
import { pagePath, requestTarget, requirementFor, routeTable } from "./auth-gate";

/** A build's route manifest as React Router makes it: flat, with parent ids and each module's exports. */
function build(handles: Record<string, unknown>) {
  const route = (id: string, parentId: string | undefined, path: string | undefined, extra: object = {}) => ({ id, parentId, path, module: { handle: handles[id] }, ...extra });
  return {
    routes: {
      root: route("root", undefined, ""),
      page: route("page", "root", "*"),
      flush: route("flush", "root", "manage/flushcache"),
      manage: route("manage", "root", "manage"),
      "manage-home": route("manage-home", "manage", undefined, { index: true }),
      users: route("users", "manage", "users"),
      api: route("api", "root", "api/things"),
    },
  } as never;
}

describe("the route table of the auth gate", () => {
  const table = routeTable(build({ manage: { middleware: ["auth"] }, users: { middleware: "superuser" }, api: { middleware: ["auth"] } }));

  it("takes the strongest requirement along the matched branch, whatever the case or encoding", () => {
    expect(requirementFor(table, "/manage")).toBe("editor");
    expect(requirementFor(table, "/manage/users")).toBe("superuser");
    expect(requirementFor(table, "/MANAGE/%75sers")).toBe("superuser");
    expect(requirementFor(table, "/manage/flushcache")).toBe("none");
    expect(requirementFor(table, "/api/things")).toBe("editor");
    expect(requirementFor(table, "/ueber-uns")).toBe("none");
  });

  it("names the page of a client data request", () => {
    expect(pagePath("/manage/users.data")).toEqual({ path: "/manage/users", data: true });
    expect(pagePath("/_root.data")).toEqual({ path: "/", data: true });
    expect(pagePath("/manage")).toEqual({ path: "/manage", data: false });
  });

  it("refuses a route that names an unknown middleware (the server does not start)", () => {
    expect(() => routeTable(build({ users: { middleware: ["auth", "admin"] } }))).toThrow(/Unknown route middleware: "admin" \(route users\)/);
  });

  it("reads `//`, `///` and `//x/manage` as the paths they are to the router (no host, no Invalid URL)", () => {
    expect(requestTarget("//")?.pathname).toBe("//");
    expect(requestTarget("///")?.pathname).toBe("///");
    expect(requestTarget("//?a=1")?.search).toBe("?a=1");
    expect(requestTarget("//manage/users")?.pathname).toBe("//manage/users");
    expect(requestTarget("/manage/users?x=1")?.pathname).toBe("/manage/users");
    expect(requestTarget("*")).toBeNull();
    expect(requestTarget("http://x/manage")).toBeNull();
  });
});
