import { describe, expect, it } from "vitest";
import { ContentError } from "~/content/errors";
import { nextLimit, outboxHref, parseOutboxParams } from "./outbox-params";

/** The outbox screen's URL: statuses and limits from fixed lists, a message id that is a UUID. */
describe("outbox parameters", () => {
  const parse = (q: string) => parseOutboxParams(new URLSearchParams(q));

  it("reads status, limit and message", () => {
    expect(parse("")).toEqual({ status: "", limit: 50, id: null });
    expect(parse("status=failed&limit=200&id=0b6e8a8e-3c1f-4f7e-9d2a-1c2b3d4e5f60")).toEqual({ status: "failed", limit: 200, id: "0b6e8a8e-3c1f-4f7e-9d2a-1c2b3d4e5f60" });
  });

  it.each(["status=queued", "status=%27", "limit=7", "limit=100000", "limit=-50", "limit=abc", "id=../../etc", "id=x%00"])("refuses %s with a 400", (q) => {
    let thrown: unknown;
    try {
      parse(q);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ContentError);
    expect((thrown as ContentError).statusCode).toBe(400);
  });

  it("grows the limit in steps and keeps the other parameters in links", () => {
    expect(nextLimit(50)).toBe(100);
    expect(nextLimit(500)).toBeNull();
    expect(outboxHref({ status: "sent", limit: 50, id: null }, { limit: 100 })).toBe("?status=sent&limit=100");
    expect(outboxHref({ status: "", limit: 50, id: "a" }, { id: null })).toBe("?");
  });
});
