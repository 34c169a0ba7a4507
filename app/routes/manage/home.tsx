import { Link } from "react-router";
import type { Route } from "./+types/home";
import { admin, mailDelivers } from "~/admin/admin.server";
import { AdminPage, buttonClass, MailOffNotice } from "~/admin/ui";
import { routeAccess } from "~/auth/access";

export const handle = routeAccess("auth");
export { AdminErrorBoundary as ErrorBoundary } from "~/admin/error-boundary";

export function loader(args: Route.LoaderArgs) {
  const { user, t } = admin(args);
  return { title: t.dashboard, welcome: t.welcome(user.name), intro: t.dashboardIntro, mailOn: mailDelivers(args.context) };
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  return (
    <AdminPage title={loaderData.title} intro={<p>{loaderData.welcome}</p>}>
      <MailOffNotice mailOn={loaderData.mailOn} />
      <p>{loaderData.intro}</p>
      <div className="flex flex-wrap gap-3">
        <Link to="/manage/pages" className={buttonClass("secondary")}>
          /manage/pages
        </Link>
        <Link to="/manage/content" className={buttonClass("secondary")}>
          /manage/content
        </Link>
      </div>
    </AdminPage>
  );
}
