import type { Route } from "./+types/api.squidex";
import { handleSquidex, type SquidexHttpContext } from "~/content/squidex/http";
import { errorResponse } from "~/lib/api.server";
import type { AppLoadContext } from "react-router";

function squidexContext(context: AppLoadContext): SquidexHttpContext {
  const { store, squidexAuth, env } = context.services;
  return { store, auth: squidexAuth, appName: env.SQUIDEX_APP_NAME, jsonLimit: env.API_BODY_LIMIT_BYTES, assetLimit: env.ASSET_MAX_BYTES };
}

async function handle({ request, context }: Route.LoaderArgs | Route.ActionArgs) {
  try {
    // The path as it arrived (still percent-encoded): handleSquidex decodes each segment once, so an
    // encoded "/" stays inside its segment and "%252E" stays "%2E", never "." (React Router's splat
    // param is decoded already).
    const raw = new URL(request.url).pathname.replace(/^\/api\/squidex\/?/, "");
    return await handleSquidex(request, raw, squidexContext(context));
  } catch (error) {
    return errorResponse(error, context.requestId);
  }
}

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
