import { ContentError, notFound } from "../errors";
import { authorize, type Principal } from "../policy";
import { LANGUAGES, MASTER_LANGUAGE } from "../store";
import { MAX_BATCH, runGraphQL, type RunOptions } from "../graphql/execute";
import { has, json, queryParam, readJsonBody, type ApiAnswer, type ApiRequest, type SquidexHttpContext } from "./respond";

/**
 * GraphQL as Squidex serves it: `POST|GET api/content/{app}/graphql` and `POST …/graphql/batch` (a
 * GET there is one request, as in Squidex) (app/content/graphql). The caller has a token or a
 * session, so reads as an editor: every field, drafts with X-Unpublished (asked of the policy).
 * flatData is in the first X-Languages language (German by default). Invalid documents are 400,
 * execution errors 200 with `errors`.
 */
export async function graphql(request: ApiRequest, method: string, rest: string[], by: Principal, ctx: SquidexHttpContext): Promise<ApiAnswer> {
  const batch = rest[0]?.toLowerCase() === "batch";
  if (rest.length > (batch ? 1 : 0)) throw notFound(`No GraphQL endpoint at graphql/${rest.join("/")}.`);
  const unpublished = has(request, "x-unpublished");
  if (unpublished) authorize(by, "readDraft");
  const wanted = request.headers.get("x-languages")?.split(",").map((l) => l.trim()).find((l) => (LANGUAGES as readonly string[]).includes(l));
  const opts: RunOptions = { store: ctx.store, client: ctx.content, audience: "editor", unpublished, language: wanted ?? MASTER_LANGUAGE };

  let input: unknown;
  // A GET is one request on either path: Squidex serves graphql and graphql/batch with one handler,
  // and a query string holds one document.
  if (method === "GET") {
    const url = new URL(request.url);
    const variables = queryParam(url, "variables");
    let parsed: unknown;
    if (variables) {
      try {
        parsed = JSON.parse(variables);
      } catch {
        return json({ errors: [{ message: '"variables" must be a JSON object.' }] }, 400);
      }
    }
    // The official SDK (2.0.1, generated from Squidex's OpenAPI document) names the parameter "The query string".
    input = { query: queryParam(url, "query") ?? queryParam(url, "The query string"), variables: parsed, operationName: queryParam(url, "operationName") };
  } else if (method === "POST") input = await readJsonBody(request, ctx);
  else throw new ContentError(405, "Use GET or POST for GraphQL.");

  if (!batch || method === "GET") {
    const answer = await runGraphQL(input, opts);
    return json(answer.body, answer.status);
  }
  if (!Array.isArray(input) || !input.length || input.length > MAX_BATCH)
    return json({ errors: [{ message: `A batch is a JSON array of 1 to ${MAX_BATCH} GraphQL requests.` }] }, 400);
  const answers = [];
  // One after another: a batch costs what its requests cost, not more at once.
  for (const entry of input) answers.push((await runGraphQL(entry, opts)).body);
  return json(answers);
}
