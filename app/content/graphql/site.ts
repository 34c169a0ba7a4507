import { z } from "zod";
import type { ContentClient } from "../client";
import { parseBody } from "../public-api";
import type { ContentStore } from "../store";
import { MAX_DOCUMENT_LENGTH, runGraphQL, type GraphQLAnswer } from "./execute";

/**
 * The site's own `POST /api/graphql` (spec §7: `graphquery, key, language, cache`): the content
 * schema as a visitor sees it (published items, public fields), or as an editor for a signed-in
 * person; `language` chooses flatData's language. `key` and `cache` are accepted for the old
 * client's sake: answers are not cached whole (the reads inside are, by the content cache).
 */
export const graphqlBody = z.object({
  graphquery: z
    .string({ message: "graphquery must be a GraphQL query (a string)" })
    .min(1, "graphquery must not be empty")
    .max(MAX_DOCUMENT_LENGTH, `graphquery must be at most ${MAX_DOCUMENT_LENGTH} characters`),
  variables: z.record(z.string(), z.unknown(), { message: "variables must be an object" }).nullish(),
  operationName: z.string({ message: "operationName must be a string" }).nullish(),
  key: z.string({ message: "key must be a string" }).max(200, "key must be at most 200 characters").optional(),
  language: z.enum(["de", "en"], { message: 'language must be "de" or "en"' }).default("de"),
  cache: z.boolean({ message: "cache must be true or false" }).optional(),
  unpublished: z.boolean({ message: "unpublished must be true or false" }).optional(),
});

export async function siteGraphQL(body: unknown, deps: { store: ContentStore; client: ContentClient; isEditor: boolean }): Promise<GraphQLAnswer> {
  const input = parseBody(graphqlBody, body);
  return runGraphQL(
    { query: input.graphquery, variables: input.variables ?? undefined, operationName: input.operationName ?? undefined },
    {
      store: deps.store,
      client: deps.client,
      audience: deps.isEditor ? "editor" : "visitor",
      unpublished: deps.isEditor && input.unpublished === true,
      language: input.language,
    },
  );
}
