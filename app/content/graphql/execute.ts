import {
  execute,
  GraphQLError,
  Kind,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type SelectionSetNode,
  type ValueNode,
} from "graphql";
import { ContentError } from "../errors";
import { isPlainObject } from "../validate";
import { logger } from "~/lib/logger.server";
import type { ContentClient } from "../client";
import type { ContentStore } from "../store";
import { Loaders } from "./loader";
import { DEFAULT_REFERENCING_TOP, DEFAULT_TOP, schemaFor, type GraphQLAudience } from "./schema";

/**
 * Runs one GraphQL request against the content schema: parse (bounded), validate, check depth and
 * cost, execute with a fresh set of batch loaders. HTTP-free: the Squidex API and the site's
 * /api/graphql shape the answer. See docs/decisions/0034-graphql.md.
 */

/** Longest query text accepted (characters); longer documents are refused before parsing. */
export const MAX_DOCUMENT_LENGTH = 16 * 1024;
/** Parser token budget: a document of many tiny tokens cannot make parsing slow. */
const MAX_TOKENS = 4000;
/** Deepest selection (fields inside fields) a query may ask for. */
export const MAX_DEPTH = 8;
/** Most items a query may ask to be read: list sizes (`top`) multiplied down the nesting, summed. */
export const MAX_COST = 10_000;
/** Most selections a query may expand to, fragments spread where they are used. */
export const MAX_SELECTIONS = 5_000;
/** Most requests in one batch. */
export const MAX_BATCH = 10;

export interface GraphQLRequest {
  query: string;
  variables?: Record<string, unknown>;
  operationName?: string;
}

export interface GraphQLAnswer {
  status: 200 | 400;
  body: { data?: unknown; errors?: { message: string; locations?: readonly unknown[]; path?: readonly unknown[] }[] };
}

export interface RunOptions {
  store: ContentStore;
  client: ContentClient;
  audience: GraphQLAudience;
  unpublished: boolean;
  language: string;
}

const refused = (message: string): GraphQLAnswer => ({ status: 400, body: { errors: [{ message }] } });

/** A request body (or GET parameters, already parsed) as a GraphQL request, or a 400 answer saying what is wrong. */
export function readRequest(input: unknown): GraphQLRequest | GraphQLAnswer {
  if (!isPlainObject(input)) return refused('Send a JSON object {"query": "...", "variables": {...}, "operationName": "..."}.');
  const { query, variables, operationName } = input;
  if (typeof query !== "string" || !query.trim()) return refused('"query" must be a GraphQL document (a non-empty string).');
  if (query.length > MAX_DOCUMENT_LENGTH) return refused(`The query is longer than ${MAX_DOCUMENT_LENGTH} characters.`);
  if (variables !== undefined && variables !== null && !isPlainObject(variables)) return refused('"variables" must be an object.');
  if (operationName !== undefined && operationName !== null && typeof operationName !== "string") return refused('"operationName" must be a string.');
  return { query, variables: (variables as Record<string, unknown> | null) ?? undefined, operationName: (operationName as string | null) ?? undefined };
}

export const isAnswer = (value: GraphQLRequest | GraphQLAnswer): value is GraphQLAnswer => "status" in value;

/** Runs one request; never throws for anything the caller sent. */
export async function runGraphQL(input: unknown, opts: RunOptions): Promise<GraphQLAnswer> {
  const request = readRequest(input);
  if (isAnswer(request)) return request;
  let document: DocumentNode;
  try {
    document = parse(request.query, { maxTokens: MAX_TOKENS, noLocation: false });
  } catch (error) {
    return refused(error instanceof GraphQLError ? error.message : "The query could not be parsed.");
  }
  const schema: GraphQLSchema = schemaFor(await opts.store.listSchemas(), opts.audience);
  const invalid = validate(schema, document, specifiedRules, { maxErrors: 20 });
  if (invalid.length) return { status: 400, body: { errors: invalid.map((e) => ({ message: e.message, locations: e.locations })) } };
  const limit = checkLimits(document, request.variables ?? {}, request.operationName);
  if (limit) return refused(limit);
  const result = await execute({
    schema,
    document,
    variableValues: request.variables,
    operationName: request.operationName,
    contextValue: { client: opts.client, audience: opts.audience, unpublished: opts.unpublished, language: opts.language, loaders: new Loaders() },
  });
  const errors = result.errors?.map((e) => ({ message: messageOf(e), ...(e.locations ? { locations: e.locations } : {}), ...(e.path ? { path: e.path } : {}) }));
  return { status: 200, body: { data: result.data ?? null, ...(errors?.length ? { errors } : {}) } };
}

/** What a caller may read of an execution error: ours and GraphQL's say what is wrong; anything else is logged, not shown. */
function messageOf(error: GraphQLError): string {
  const original = error.originalError;
  if (!original || original instanceof GraphQLError) return error.message;
  if (original instanceof ContentError) return original.details?.length ? `${original.message} ${original.details.join(" ")}` : original.message;
  // Values that do not fit their field's type (a scalar's serialize refusing) are the caller's to know.
  if (original instanceof TypeError && /must be|cannot represent/i.test(original.message)) return error.message;
  logger.error({ err: original, path: error.path }, "GraphQL resolver failed");
  return "Internal error while reading this field.";
}

/**
 * Depth and cost of the operation that will run, before it runs (`null` when within the limits).
 * Cost counts the items read: a list field costs its `top` (or its default) and multiplies what is
 * selected inside it; introspection (`__schema`, `__type`) is bounded by the schema and not counted.
 */
export function checkLimits(document: DocumentNode, variables: Record<string, unknown>, operationName?: string): string | null {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const operations = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
  const operation = operationName ? operations.find((o) => o.name?.value === operationName) : operations[0];
  if (!operation) return null; // execute reports the missing operation
  let deepest = 0;
  const numberOf = (value: ValueNode | undefined, fallback: number): number => {
    if (!value) return fallback;
    if (value.kind === Kind.INT) return Number(value.value);
    if (value.kind === Kind.VARIABLE) {
      const v = variables[value.name.value];
      return typeof v === "number" && Number.isFinite(v) ? v : fallback;
    }
    return fallback;
  };
  const multiplier = (field: FieldNode): number => {
    const name = field.name.value;
    const top = field.arguments?.find((a) => a.name.value === "top")?.value;
    if (/^query.+Contents(WithTotal)?$/.test(name)) return Math.max(1, numberOf(top, DEFAULT_TOP));
    if (/^referencing.+Contents$/.test(name)) return Math.max(1, numberOf(top, DEFAULT_REFERENCING_TOP));
    return 1;
  };
  // Fragments spreading fragments twice over expand exponentially: count the selections walked.
  let steps = 0;
  const walk = (set: SelectionSetNode, depth: number, seen: ReadonlySet<string>): number => {
    deepest = Math.max(deepest, depth);
    let cost = 0;
    for (const selection of set.selections) {
      if (++steps > MAX_SELECTIONS) return cost;
      if (selection.kind === Kind.FIELD) {
        if (selection.name.value.startsWith("__")) continue;
        if (!selection.selectionSet) continue;
        const n = multiplier(selection);
        const inner = walk(selection.selectionSet, depth + 1, seen);
        // Reference lists in flatData read their items too: count each object field as one read.
        cost += n > 1 ? n + n * inner : 1 + inner;
      } else if (selection.kind === Kind.INLINE_FRAGMENT) cost += walk(selection.selectionSet, depth, seen);
      else {
        const name = selection.name.value;
        const fragment = fragments.get(name);
        if (fragment && !seen.has(name)) cost += walk(fragment.selectionSet, depth, new Set([...seen, name]));
      }
      if (cost > MAX_COST * 1000) return cost;
    }
    return cost;
  };
  const cost = walk(operation.selectionSet, 0, new Set());
  if (steps > MAX_SELECTIONS) return `The query expands to more than ${MAX_SELECTIONS} selections (fragments included); ask for fewer fields.`;
  if (deepest > MAX_DEPTH) return `The query nests ${deepest} levels deep; at most ${MAX_DEPTH} are allowed.`;
  if (cost > MAX_COST)
    return `The query may read about ${cost} items; at most ${MAX_COST} are allowed. Ask for fewer items (a smaller top) or nest fewer lists.`;
  return null;
}
