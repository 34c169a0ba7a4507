import type { Route } from "./+types/home";
import { restItems } from "~/content/public-api";
import { apiContext } from "~/lib/api.server";

type Block = { id?: string; schemaId: string; [field: string]: unknown };
type PageData = { title: string; seo?: { seotitle?: string; slug?: string; description?: string }; blocks?: Block[] };

export async function loader({ context }: Route.LoaderArgs) {
  const language = "de";
  const q = JSON.stringify({ filter: { path: `data.seo.${language}.slug`, op: "eq", value: "home" }, take: 1 });
  const { items } = await restItems({ url: `core-pages?q=${encodeURIComponent(q)}`, language }, apiContext(context));
  const page = items[0];
  if (!page) throw new Response("Page Not Found: /", { status: 404 });
  return { language, page: page.data as PageData };
}

export const meta: Route.MetaFunction = ({ data }) => [
  { title: data?.page.seo?.seotitle || data?.page.title || "Praxisnetz" },
  ...(data?.page.seo?.description ? [{ name: "description", content: data.page.seo.description }] : []),
];

/** Plain text of a block's fields, tags removed: a placeholder until the block registry renders them. */
function blockText(block: Block): string[] {
  const texts: string[] = [];
  const walk = (v: unknown, key?: string) => {
    if (key === "schemaId" || key === "id" || key === "image" || key === "icon") return;
    if (typeof v === "string") texts.push(v.replace(/<[^>]*>/g, " ").replace(/\s+/g, " ").trim());
    else if (Array.isArray(v)) v.forEach((x) => walk(x));
    else if (v && typeof v === "object") Object.entries(v).forEach(([k, x]) => walk(x, k));
  };
  Object.entries(block).forEach(([k, v]) => walk(v, k));
  return texts.filter(Boolean);
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { page } = loaderData;
  return (
    <main className="mx-auto max-w-4xl p-6">
      <h1 className="text-4xl font-bold tracking-tight">{page.title}</h1>
      {(page.blocks ?? []).map((block, i) => (
        <section key={block.id ?? i} data-block={block.schemaId} className="mt-8 border-t border-slate-200 pt-6">
          {blockText(block).map((text, j) => (
            <p key={j} className="mt-2">
              {text}
            </p>
          ))}
        </section>
      ))}
    </main>
  );
}
