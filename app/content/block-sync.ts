import { BLOCK_SCHEMAS } from "../blocks/schemas";
import { BLOCK_DEFINITIONS } from "../blocks/registry";
import { ContentError } from "./errors";
import type { ContentStore } from "./store";
import type { SchemaInput } from "./types";

/**
 * Block kinds come with the code (app/blocks/<kind>/), but a store keeps the schemas it was given:
 * the demo seed writes them once, into an empty store. At every start this brings an existing store
 * up to the code's block kinds without touching what editors changed: a missing block schema is
 * created, a missing field is added to a block schema, the pages' `blocks` field admits every kind,
 * and a kind nobody put in the palette gets a palette entry. Nothing is ever changed or removed.
 * Returns what it did, for the log.
 */
export async function syncBlockSchemas(store: ContentStore): Promise<string[]> {
  const schemas = new Map((await store.listSchemas()).map((s) => [s.name, s]));
  // An empty store is the seed's (or an operator's who wants no demo): nothing to bring up to date.
  if (!schemas.has("core-pages")) return [];
  const done: string[] = [];
  for (const code of BLOCK_SCHEMAS) {
    const stored = schemas.get(code.name);
    if (!stored) {
      await store.upsertSchema(code);
      done.push(`created ${code.name}`);
      continue;
    }
    const missing = code.fields.filter((f) => !stored.fields.some((s) => s.name === f.name));
    if (!missing.length) continue;
    const input: SchemaInput = { name: stored.name, type: stored.type, isPublished: stored.isPublished, properties: stored.properties, fields: [...stored.fields, ...missing.map(({ fieldId: _id, ...f }) => f)] };
    await store.upsertSchema(input);
    done.push(`${code.name}: added ${missing.map((f) => f.name).join(", ")}`);
  }

  const pages = schemas.get("core-pages")!;
  const blocksField = pages.fields.find((f) => f.name === "blocks");
  const allowed = blocksField?.properties.schemaIds;
  const lacking = allowed?.length ? BLOCK_SCHEMAS.map((s) => s.name).filter((n) => !allowed.includes(n)) : [];
  if (blocksField && lacking.length) {
    await store.upsertSchema({
      name: pages.name,
      type: pages.type,
      isPublished: pages.isPublished,
      properties: pages.properties,
      fields: pages.fields.map((f) => (f === blocksField ? { ...f, properties: { ...f.properties, schemaIds: [...allowed!, ...lacking] } } : f)),
    });
    done.push(`core-pages blocks: admits ${lacking.join(", ")}`);
  }

  if (schemas.has("core-settings-blocks")) {
    const { items } = await store.query("core-settings-blocks", {}, { unpublished: true, all: true, noTotal: true });
    const listed = new Set(items.map((i) => i.data.name?.iv));
    for (const code of BLOCK_SCHEMAS) {
      const definition = BLOCK_DEFINITIONS[code.name];
      if (listed.has(code.name) || !definition) continue;
      const label = definition.palette.label;
      try {
        // The seed's id for the entry: two nodes starting at once make it once (the second is refused).
        await store.create(
          "core-settings-blocks",
          { name: { iv: code.name }, label: { de: label.de, en: label.en }, description: { de: code.properties?.hints ?? "", en: "" }, icon: { iv: definition.palette.icon }, category: { iv: definition.container ? "layout" : "content" }, active: { iv: true } },
          { publish: true, id: `palette-${code.name.replace(/^block-/, "")}` },
        );
        done.push(`palette: ${code.name}`);
      } catch (error) {
        if (!(error instanceof ContentError && error.statusCode === 409)) throw error;
      }
    }
  }
  return done;
}
