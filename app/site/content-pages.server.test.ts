import { Writable } from "node:stream";
import pino from "pino";
import { describe, expect, it } from "vitest";
import type { Logger } from "~/lib/logger.server";
import { prepareContentPage } from "./content-pages.server";

/** A real pino logger whose JSON lines are kept for the test to read. */
function capturingLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  const logger: Logger = pino({ base: null }, stream);
  return { logger, lines };
}

const SITE = { themeIds: [], colors: {} };

describe("preparing a content page", () => {
  it("prepares a section's children and logs each child it leaves out, with its page and section", () => {
    const { logger, lines } = capturingLogger();
    const page = prepareContentPage(
      "page-x",
      {
        title: "X",
        blocks: [
          { schemaId: "block-video", id: "top" },
          {
            schemaId: "block-section",
            id: "s1",
            layout: "two-columns",
            blocks: [
              { schemaId: "block-richtext", id: "c1", html: '<p>ok<img src=x onerror="alert(1)"></p>' },
              { schemaId: "block-video", id: "c2" },
              { schemaId: "block-section", id: "c3", blocks: [] },
            ],
          },
        ],
      },
      SITE,
      logger,
    );
    expect(page.blocks).toEqual([{ schemaId: "block-section", id: "s1", layout: "two-columns", blocks: [{ schemaId: "block-richtext", id: "c1", html: "<p>ok</p>" }] }]);
    expect(lines.map(({ msg, schemaId, page, container }) => ({ msg, schemaId, page, container }))).toEqual([
      { msg: "The variant does not exist", schemaId: "block-video", page: "page-x", container: undefined },
      { msg: "The variant does not exist", schemaId: "block-video", page: "page-x", container: "s1" },
      { msg: "A container inside a container was left out", schemaId: "block-section", page: "page-x", container: "s1" },
    ]);
  });
});
