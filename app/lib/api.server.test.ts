import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ContentError } from "~/content/errors";
import { errorResponse } from "./api.server";
import { realBusyError as busyError } from "../../tests/support/sqlite-busy";

/**
 * The one error mapping of the JSON APIs: the content service's errors keep their status, a busy
 * database (the driver's own error, as it arrives) is a 503 with Retry-After, anything else a 500
 * that says nothing of its cause.
 */
describe("errorResponse", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "praxisnetz-errors-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const realBusyError = () => busyError(dir);

  it("answers SQLite's busy error with 503, Retry-After and the content service's error shape", async () => {
    const busy = realBusyError();
    expect((busy as { code?: string }).code).toBe("SQLITE_BUSY");
    const res = errorResponse(busy, "req-1");
    expect(res.status).toBe(503);
    expect(res.headers.get("Retry-After")).toBe("1");
    expect(await res.json()).toEqual({ message: "The content store is busy; try again in a moment.", statusCode: 503, errorCode: "STORE_BUSY" });
  });

  it("answers PostgreSQL's lock timeout, serialization failure and deadlock with 503 too", () => {
    for (const code of ["55P03", "40001", "40P01"]) {
      const res = errorResponse(Object.assign(new Error("canceling statement"), { code }));
      expect(res.status, code).toBe(503);
      expect(res.headers.get("Retry-After"), code).toBe("1");
    }
  });

  it("keeps a ContentError's status and gives any other error a 500 without Retry-After or its message", async () => {
    expect(errorResponse(new ContentError(409, "taken")).status).toBe(409);
    const other = errorResponse(Object.assign(new Error("UNIQUE constraint failed: contents.id"), { code: "SQLITE_CONSTRAINT_PRIMARYKEY" }));
    expect(other.status).toBe(500);
    expect(other.headers.get("Retry-After")).toBeNull();
    expect(await other.json()).toEqual({ message: "Internal server error.", statusCode: 500 });
  });
});
