import { data } from "react-router";
import { ContentError } from "~/content/errors";
import type { ContentStore } from "~/content/store";
import type { ContentItem, Schema } from "~/content/types";

/**
 * The collection a content route names, or a 404 for a name that is none (or a component schema,
 * which has no items of its own). Over-long or odd names never reach the store.
 */
export async function requireCollection(store: ContentStore, name: string | undefined): Promise<Schema> {
  const schema = name && /^[a-z0-9][a-z0-9-]{0,99}$/i.test(name) ? await store.getSchema(name) : undefined;
  if (!schema || schema.type === "Component" || schema.name !== name) throw data(null, { status: 404 });
  return schema;
}

/** The client's problem in a store error (its message and details), or undefined for anything else. */
export function clientProblem(error: unknown): { status: number; message: string; details: string[] } | undefined {
  if (!(error instanceof ContentError) || error.statusCode < 400 || error.statusCode >= 500) return undefined;
  return { status: error.statusCode, message: error.message, details: error.details ?? [] };
}

/** The first few text fields of a schema: the columns of its list. */
export function listColumns(schema: Schema, max = 3): string[] {
  return schema.fields
    .filter((f) => !f.isHidden && f.properties.fieldType === "String" && !f.properties.tags?.includes("private"))
    .slice(0, max)
    .map((f) => f.name);
}

/** What an item is called in a heading or a link: its first text column, else its id. */
export function titleOf(schema: Schema, item: ContentItem): string {
  for (const name of listColumns(schema, 1)) {
    const cell = item.data[name];
    const value = cell?.iv ?? cell?.de ?? cell?.en;
    if (typeof value === "string" && value.trim()) return value.slice(0, 120);
  }
  return item.id;
}
