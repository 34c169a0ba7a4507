import { DEFAULT_LANGUAGE } from "../i18n/languages";
import type { ContentData, ContentItem, FlatItem, Schema } from "./types";


/**
 * Reads one field for one language: invariant fields give their `iv` value; localised fields give the
 * requested language, falling back to the master language (de) when it has no value.
 */
export function fieldValue(partitions: Record<string, unknown> | undefined, language: string, master = DEFAULT_LANGUAGE): unknown {
  if (!partitions) return undefined;
  if ("iv" in partitions) return partitions.iv;
  const value = partitions[language];
  if (value !== undefined && value !== null && value !== "") return value;
  return partitions[master] ?? undefined;
}

export function flattenData(data: ContentData, language: string, schema?: Schema): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const hidden = new Set(schema?.fields.filter((f) => f.isHidden).map((f) => f.name));
  for (const [name, partitions] of Object.entries(data)) {
    if (hidden.has(name)) continue;
    const value = fieldValue(partitions, language);
    if (value !== undefined) out[name] = value;
  }
  return out;
}

export function flattenItem<T = Record<string, unknown>>(item: ContentItem, language: string, schema?: Schema): FlatItem<T> {
  return {
    id: item.id,
    schemaName: item.schemaName,
    status: item.status,
    ...(item.newStatus ? { newStatus: item.newStatus } : {}),
    version: item.version,
    created: item.created,
    lastModified: item.lastModified,
    ...(item.slug ? { slug: item.slug } : {}),
    data: flattenData(item.data, language, schema) as T,
  };
}
