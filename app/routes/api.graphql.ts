import type { Route } from "./+types/api.graphql";
import { siteGraphQL } from "~/content/graphql/site";
import { errorResponse, jsonResponse, methodNotAllowed } from "~/lib/api.server";
import { readJson } from "~/lib/body";

export const loader = () => methodNotAllowed();

/** GraphQL over the content, as visitors (or the signed-in editor) may read it: app/content/graphql/site.ts. */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  try {
    const { store, content, env } = context.services;
    const body = await readJson(request, env.API_BODY_LIMIT_BYTES);
    const answer = await siteGraphQL(body, { store, client: content, isEditor: !!context.user });
    return jsonResponse(answer.body, { status: answer.status });
  } catch (error) {
    return errorResponse(error, context.requestId);
  }
}
