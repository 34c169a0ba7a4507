import { jsonResponse } from "~/lib/api.server";
import type { Route } from "./+types/api.not-found";

const notFound = (request: Request) =>
  jsonResponse({ message: `No API endpoint at ${new URL(request.url).pathname}.`, statusCode: 404 }, { status: 404 });

export const loader = ({ request }: Route.LoaderArgs) => notFound(request);
export const action = ({ request }: Route.ActionArgs) => notFound(request);
