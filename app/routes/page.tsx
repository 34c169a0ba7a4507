import type { Route } from "./+types/page";
import { ContentPage } from "~/site/content-page";
import { loadContentPage } from "~/site/page.server";
import { originOf, seoMeta } from "~/site/seo";

/** Home (`/`, `/en`, `/de`) and every content page, looked up by its slug in the URL's language. */
export async function loader({ request, context }: Route.LoaderArgs) {
  return { ...(await loadContentPage(request, context)), origin: originOf(request, context) };
}

export const meta: Route.MetaFunction = ({ loaderData: d }) =>
  d ? seoMeta({ title: d.page.seotitle, description: d.page.description, language: d.language, origin: d.origin, canonical: d.canonical, alternates: d.alternates }) : [];

export default function Page({ loaderData }: Route.ComponentProps) {
  return <ContentPage page={loaderData.page} blockData={loaderData.blockData} />;
}
