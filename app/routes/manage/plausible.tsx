import type { Route } from "./+types/plausible";
import { admin } from "~/admin/admin.server";
import { AdminPage, EmptyState } from "~/admin/ui";
import { routeAccess } from "~/auth/access";
import type { Language } from "~/i18n/languages";

/** `/manage/plausible`: the place of the analytics dashboard, which a later platform issue builds. */
export const handle = routeAccess("auth");
export { AdminErrorBoundary as ErrorBoundary } from "~/admin/error-boundary";

const texts = {
  de: {
    title: "Statistik (Plausible)",
    empty: "Die Besucherstatistik ist noch nicht eingerichtet. Sobald sie angebunden ist, erscheinen hier die Seitenaufrufe der Website; bis dahin werden keine Daten erhoben.",
  },
  en: {
    title: "Analytics (Plausible)",
    empty: "Visitor analytics is not configured yet. Once it is connected, the site's page views appear here; until then no data is collected.",
  },
} satisfies Record<Language, unknown>;

export function loader(args: Route.LoaderArgs) {
  const { language } = admin(args);
  return { text: texts[language] };
}

export default function Plausible({ loaderData }: Route.ComponentProps) {
  const { text } = loaderData;
  return (
    <AdminPage title={text.title}>
      <EmptyState>{text.empty}</EmptyState>
    </AdminPage>
  );
}
