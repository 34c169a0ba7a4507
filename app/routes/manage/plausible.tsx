import type { Route } from "./+types/plausible";
import { admin } from "~/admin/admin.server";
import { AdminPage, EmptyState } from "~/admin/ui";
import { routeAccess } from "~/auth/access";

export const handle = routeAccess("auth");
export { AdminErrorBoundary as ErrorBoundary } from "~/admin/error-boundary";

export function loader(args: Route.LoaderArgs) {
  const { t } = admin(args);
  return { title: "plausible", empty: t.empty };
}

export default function Screen({ loaderData }: Route.ComponentProps) {
  return (
    <AdminPage title={loaderData.title}>
      <EmptyState>{loaderData.empty}</EmptyState>
    </AdminPage>
  );
}
