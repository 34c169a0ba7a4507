import type { Route } from "./+types/test-error";
import { notFound } from "~/site/page.server";

/**
 * Fails on purpose so tests can see the 500 page; answers 404 unless TEST_ROUTES=true, which only
 * the test servers set.
 */
export function loader({ context, request }: Route.LoaderArgs) {
  if (!context.services.env.TEST_ROUTES) notFound(new URL(request.url).pathname);
  throw new Error("Deliberate failure for the error page test");
}

export default function TestError() {
  return null;
}
