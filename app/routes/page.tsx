import { lazy } from "react";
import { preloadModule } from "react-dom";
import { data } from "react-router";
import type { Route } from "./+types/page";
import { requireUser } from "~/auth/require.server";
import { loadEditMode } from "~/editor/edit-page.server";
import { editorPreloads } from "~/editor/preload.server";
import { ContentPage } from "~/site/content-page";
import { loadContentPage, notFound, requestedPage } from "~/site/page.server";
import { originOf, seoMeta } from "~/site/seo";

/** Edit mode's code: its own chunk, loaded only when a signed-in editor opens `?edit=1`. */
const EditMode = lazy(() => import("~/editor/edit-mode"));

/** Never kept by the page cache, a CDN or the browser: an editor's draft and the editor's data. */
const PRIVATE = { "Cache-Control": "private, no-store", "X-Robots-Tag": "noindex" };

/**
 * Home (`/`, `/en`, `/de`) and every content page, looked up by its slug in the URL's language.
 * With `?edit=1` and a signed-in editor: the same page in edit mode, showing its draft (§1, §6).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const origin = originOf(request, context);
  const edit = url.searchParams.get("edit") === "1";
  // `?preview=1`: the draft as visitors will see it once published — signed-in editors only.
  if (edit || url.searchParams.get("preview") === "1") {
    const user = requireUser({ context, request });
    const { language, slug } = requestedPage(url);
    const loaded = await loadEditMode(context, user, language, slug, url);
    if (!loaded) notFound(url.pathname);
    const { page, blockData, editor } = loaded;
    const alternates = { de: `${editor.page.path.de}?${url.searchParams}`, en: `${editor.page.path.en}?${url.searchParams}` };
    if (!edit) return data({ mode: "preview" as const, language, page, blockData, editor: null, origin, canonical: editor.page.path[language], alternates }, { headers: PRIVATE });
    return data({ mode: "edit" as const, language, page, blockData, editor, origin, canonical: editor.page.path[language], alternates, preload: editorPreloads() }, { headers: PRIVATE });
  }
  return { mode: "view" as const, ...(await loadContentPage(request, context)), origin, editor: null };
}

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => (loaderHeaders.has("Cache-Control") ? loaderHeaders : new Headers());

export const meta: Route.MetaFunction = ({ loaderData: d }) =>
  d
    ? [
        ...seoMeta({ title: d.page.seotitle, description: d.page.description, language: d.language, origin: d.origin, canonical: d.canonical, alternates: d.alternates }),
        ...(d.mode !== "view" ? [{ name: "robots", content: "noindex" }] : []),
      ]
    : [];

export default function Page({ loaderData }: Route.ComponentProps) {
  const view = <ContentPage page={loaderData.page} blockData={loaderData.blockData} />;
  if (loaderData.mode === "preview") {
    return (
      <>
        <p role="status" className="bg-[#fff4d6] px-4 py-2 text-center text-sm font-semibold text-[#5c4400]" data-draft-preview>
          {loaderData.language === "de" ? "Vorschau des Entwurfs – nur für angemeldete Redakteur:innen sichtbar." : "Draft preview – visible to signed-in editors only."}
        </p>
        {view}
      </>
    );
  }
  if (loaderData.mode !== "edit" || !loaderData.editor) return view;
  // Edit mode's chunks load with the page's own scripts (hoisted into <head> by React).
  for (const href of loaderData.preload) preloadModule(href);
  // No Suspense boundary of its own: the server waits for the editor's module (once, after a start)
  // and the browser keeps the server's markup until the preloaded chunk is there to hydrate it. (Each
  // block on the canvas is a boundary of its own: app/editor/canvas.tsx.)
  return <EditMode key={loaderData.editor.page.id} language={loaderData.language} page={loaderData.page} blockData={loaderData.blockData} editor={loaderData.editor} />;
}
