import { describe, expect, it } from "vitest";
import { ContentError } from "~/content/errors";
import { outboxHref, parseOutboxParams } from "./outbox-params";

/** The outbox screen's URL: statuses from a fixed list, message ids (shown one, page start) that are UUIDs. */
describe("outbox parameters", () => {
  const parse = (q: string) => parseOutboxParams(new URLSearchParams(q));
  const ID = "0b6e8a8e-3c1f-4f7e-9d2a-1c2b3d4e5f60";

  it("reads status, page start and message", () => {
    expect(parse("")).toEqual({ status: "", before: null, id: null });
    expect(parse(`status=failed&before=${ID}&id=${ID}`)).toEqual({ status: "failed", before: ID, id: ID });
  });

  it.each(["status=queued", "status=%27", "id=../../etc", "id=x%00", "before=-1", "before=..%2F..", `before=${"a".repeat(10_000)}`, "before=%00"])("refuses %s with a 400", (q) => {
    let thrown: unknown;
    try {
      parse(q);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ContentError);
    expect((thrown as ContentError).statusCode).toBe(400);
  });

  it("says what is wrong in the editor's language", () => {
    expect(() => parseOutboxParams(new URLSearchParams("status=queued"), "en")).toThrow("Unknown status; use pending, sent or failed.");
    expect(() => parseOutboxParams(new URLSearchParams("status=queued"), "de")).toThrow("Unbekannter Status; erlaubt sind pending, sent und failed.");
    expect(() => parseOutboxParams(new URLSearchParams("id=x"), "de")).toThrow("Das ist keine Nachrichten-ID.");
  });

  it("keeps the other parameters in links", () => {
    expect(outboxHref({ status: "sent", before: null, id: null }, { before: ID })).toBe(`?status=sent&before=${ID}`);
    expect(outboxHref({ status: "", before: ID, id: "a" }, { id: null })).toBe(`?before=${ID}`);
  });
});
