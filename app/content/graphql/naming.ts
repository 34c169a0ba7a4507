/**
 * Squidex's GraphQL names for a content schema and its fields (see shared/squidex-contract.md §5):
 * schema `gm-content-practitioners` is type `GmContentPractitioners`, queried by
 * `queryGmContentPractitionersContents`; field `my-title` is `myTitle`; language `de-DE` is `de_DE`.
 */

/** Type names GraphQL or the generated schema already use: a content type that would clash gets a number. */
const RESERVED = new Set(["Content", "Asset", "User", "Component", "Query", "Mutation", "Subscription", "Instant", "JsonScalar", "String", "Int", "Float", "Boolean", "ID"]);

const words = (name: string) => name.split(/[^A-Za-z0-9]+/).filter(Boolean);

/** A valid GraphQL name: letters, digits and `_`, not starting with a digit. */
function validName(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9_]/g, "_");
  return /^[0-9]/.test(cleaned) ? `_${cleaned}` : cleaned || "_";
}

/** `gm-content-practitioners` → `GmContentPractitioners`. */
export function pascalCase(name: string): string {
  return validName(words(name).map((w) => w[0]!.toUpperCase() + w.slice(1)).join(""));
}

/** `my-title` → `myTitle`; a name that is already camelCase stays as it is. */
export function camelCase(name: string): string {
  const [first = "", ...rest] = words(name);
  return validName(first[0] ? first[0].toLowerCase() + first.slice(1) + rest.map((w) => w[0]!.toUpperCase() + w.slice(1)).join("") : "");
}

/** The language code as a field of a localised field's object: `de-DE` → `de_DE`. */
export const languageField = (code: string) => validName(code.replace(/-/g, "_"));

/**
 * The type names of the content schemas, in their order: PascalCase, with a number when the name is
 * reserved or taken by an earlier schema (`Content2`).
 */
export function typeNames(schemaNames: readonly string[]): Map<string, string> {
  const taken = new Set(RESERVED);
  const out = new Map<string, string>();
  for (const name of schemaNames) {
    const base = pascalCase(name);
    let candidate = base;
    for (let n = 2; taken.has(candidate); n++) candidate = `${base}${n}`;
    taken.add(candidate);
    out.set(name, candidate);
  }
  return out;
}

/** The GraphQL names of a schema's fields (camelCase, numbered when two fields would collide). */
export function fieldNames(names: readonly string[], reserved: readonly string[] = []): Map<string, string> {
  const taken = new Set(reserved);
  const out = new Map<string, string>();
  for (const name of names) {
    const base = camelCase(name);
    let candidate = base;
    for (let n = 2; taken.has(candidate); n++) candidate = `${base}${n}`;
    taken.add(candidate);
    out.set(name, candidate);
  }
  return out;
}

export const queryField = (type: string) => `query${type}Contents`;
export const queryWithTotalField = (type: string) => `query${type}ContentsWithTotal`;
export const findField = (type: string) => `find${type}Content`;
export const referencingField = (type: string) => `referencing${type}Contents`;
