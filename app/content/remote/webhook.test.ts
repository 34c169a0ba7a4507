import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { squidexSignature, validSignature, webhookTarget } from "./webhook";

describe("Squidex webhook signature", () => {
  const body = JSON.stringify({ type: "PagesUpdated", payload: { id: "x" } });
  it("is Base64(SHA-256(body + secret)), as Squidex's webhook action makes it", () => {
    expect(squidexSignature(body, "s3cret-s3cret-s3cret")).toBe(createHash("sha256").update(`${body}s3cret-s3cret-s3cret`).digest("base64"));
  });
  it("accepts only that signature", () => {
    const good = squidexSignature(body, "s3cret-s3cret-s3cret");
    expect(validSignature(body, good, "s3cret-s3cret-s3cret")).toBe(true);
    expect(validSignature(body, ` ${good} `, "s3cret-s3cret-s3cret")).toBe(true);
    expect(validSignature(`${body} `, good, "s3cret-s3cret-s3cret")).toBe(false);
    expect(validSignature(body, good, "another-secret-here")).toBe(false);
    expect(validSignature(body, null, "s3cret-s3cret-s3cret")).toBe(false);
    expect(validSignature(body, "", "s3cret-s3cret-s3cret")).toBe(false);
    expect(validSignature(body, "x".repeat(5000), "s3cret-s3cret-s3cret")).toBe(false);
  });
});

describe("what a Squidex event names", () => {
  it("a content event: its schema (object or 'id,name' text) and item", () => {
    expect(webhookTarget({ type: "PagesUpdated", payload: { $type: "EnrichedContentEvent", type: "Updated", id: "page-about", schemaId: { id: "1", name: "core-pages" } } })).toEqual({ kind: "content", schema: "core-pages", id: "page-about" });
    expect(webhookTarget({ type: "NewsCreated", payload: { $type: "EnrichedContentEvent", id: "d2b105fe-1255", schemaId: "d7175bf9-f45c,news" } })).toEqual({ kind: "content", schema: "news", id: "d2b105fe-1255" });
  });
  it("a schema event, or anything else", () => {
    expect(webhookTarget({ type: "SchemaUpdated", payload: { $type: "EnrichedSchemaEvent", id: "1" } })).toEqual({ kind: "schema" });
    expect(webhookTarget({ type: "AppContributorAssigned", payload: { $type: "EnrichedAppEvent" } })).toEqual({ kind: "other" });
  });
  it("an asset event: its asset", () => {
    expect(webhookTarget({ type: "AssetCreated", payload: { $type: "EnrichedAssetEvent", type: "Created", id: "a" } })).toEqual({ kind: "asset", id: "a" });
    expect(webhookTarget({ type: "AssetDeleted", payload: { $type: "EnrichedAssetEvent", type: "Deleted", id: "0d5c1d6e-46a4-4c5b-9a35-3c5b1c0f6e11" } })).toEqual({ kind: "asset", id: "0d5c1d6e-46a4-4c5b-9a35-3c5b1c0f6e11" });
    expect(webhookTarget({ payload: { $type: "EnrichedAssetEvent", id: "../secret" } })).toEqual({ kind: "other" });
    expect(webhookTarget({ payload: { $type: "EnrichedAssetEvent" } })).toEqual({ kind: "other" });
  });
  it("names that are not Squidex names or ids are not taken as such", () => {
    expect(webhookTarget({ payload: { $type: "EnrichedContentEvent", id: "../../etc", schemaId: { name: "core-pages" } } })).toEqual({ kind: "other" });
    expect(webhookTarget({ payload: { $type: "EnrichedContentEvent", id: "x", schemaId: { name: "Core Pages" } } })).toEqual({ kind: "other" });
  });
  it("no event at all: null", () => {
    for (const body of [null, 1, "x", [], {}, { payload: {} }]) expect(webhookTarget(body)).toBeNull();
  });
});
