import { data } from "react-router";
import type { Route } from "./+types/not-found";
import { admin } from "~/admin/admin.server";
import { routeAccess } from "~/auth/access";

/** An admin path nothing answers: 404 inside the admin layout (and behind the auth middleware). */
export const handle = routeAccess("auth");
export { AdminErrorBoundary as ErrorBoundary } from "~/admin/error-boundary";

export function loader(args: Route.LoaderArgs) {
  admin(args);
  throw data({ notFound: new URL(args.request.url).pathname }, { status: 404 });
}

export default function NotFound() {
  return null;
}
