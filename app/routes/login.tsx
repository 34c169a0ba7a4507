import type { Route } from "./+types/login";
import { Placeholder, placeholderLoader } from "~/site/placeholder";
import { seoMeta } from "~/site/seo";

export const loader = placeholderLoader("login");

export const meta: Route.MetaFunction = ({ loaderData: d }) => (d ? seoMeta({ ...d, noindex: true }) : []);

export default function Screen({ loaderData }: Route.ComponentProps) {
  return <Placeholder title={loaderData.title} language={loaderData.language} />;
}
