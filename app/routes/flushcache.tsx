import { data, Form, useActionData } from "react-router";
import type { Route } from "./+types/flushcache";
import { LANGUAGES } from "~/i18n/languages";
import { readForm } from "~/lib/body";
import { sameSecret } from "~/lib/same-secret";

/**
 * /manage/flushcache (spec §2: empty layout, no auth middleware): empties the content and page
 * caches, which rebuild themselves from the store. It needs the shared secret FLUSH_TOKEN (header
 * `X-Flush-Token`, `Authorization: Bearer …`, the query's `token` or the form's), so a content
 * service can call it as a webhook; a signed-in editor needs none. Without either it does nothing
 * and says so (403). It works at most once every 10 seconds, so it cannot keep the site cold.
 */
let lastFlush = 0;
/** Its own words (no visitor page needs them), in both languages: the page has none in its address. */
const TEXTS = {
  de: {
    title: "Cache leeren",
    intro: "Leert die Inhalts- und Seiten-Caches; sie bauen sich aus dem Inhaltsspeicher neu auf.",
    button: "Cache leeren",
    done: "Cache geleert.",
    tooSoon: "Der Cache wurde gerade erst geleert.",
    last: "Zuletzt",
    token: "Schlüssel (FLUSH_TOKEN)",
    badToken: "Ohne gültigen Schlüssel wird nichts geleert.",
  },
  en: {
    title: "Flush cache",
    intro: "Empties the content and page caches; they rebuild from the content store.",
    button: "Flush cache",
    done: "Cache flushed.",
    tooSoon: "The cache was flushed a moment ago.",
    last: "Last",
    token: "Secret (FLUSH_TOKEN)",
    badToken: "Without a valid secret nothing is flushed.",
  },
};
/** Every text in both languages, German first. */
const both = (pick: (t: (typeof TEXTS)["de"]) => string) => LANGUAGES.map((l) => pick(TEXTS[l])).join(" / ");
const MIN_INTERVAL_MS = 10_000;
const NO_STORE = { "Cache-Control": "no-store", "X-Robots-Tag": "noindex" };
export const headers = () => NO_STORE;

export function loader() {
  return { flushedAt: lastFlush ? new Date(lastFlush).toISOString() : null };
}

/** The token a caller sent: header, bearer, query, or a form field (small bodies only). */
async function givenToken(request: Request): Promise<string | null> {
  const header = request.headers.get("x-flush-token") ?? request.headers.get("authorization")?.match(/^Bearer\s+(\S+)$/i)?.[1];
  if (header) return header;
  const query = new URL(request.url).searchParams.get("token");
  if (query) return query;
  if (/^application\/x-www-form-urlencoded/i.test(request.headers.get("content-type") ?? "")) {
    const form = await readForm(request, 4096).catch(() => null);
    return form?.get("token") ?? null;
  }
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const token = await givenToken(request);
  const allowed = !!context.user || (!!token && sameSecret(token, context.services.flushToken));
  if (!allowed) {
    context.services.logger.warn({ requestId: context.requestId }, "cache flush refused: no valid token");
    return data({ ok: false, message: both((t) => t.badToken) }, { status: 403, headers: NO_STORE });
  }
  const now = Date.now();
  if (now - lastFlush < MIN_INTERVAL_MS) return data({ ok: false, message: both((t) => t.tooSoon) }, { status: 429, headers: { ...NO_STORE, "Retry-After": "10" } });
  lastFlush = now;
  context.services.cache.clear();
  context.services.pageCache.clear();
  context.services.logger.info({ requestId: context.requestId, by: context.user ? context.user.id : "token" }, "caches flushed");
  return data({ ok: true, message: both((t) => t.done) }, { headers: NO_STORE });
}

export const meta: Route.MetaFunction = () => [{ title: both((t) => t.title) }, { name: "robots", content: "noindex" }];

export default function FlushCache({ loaderData }: Route.ComponentProps) {
  const result = useActionData<typeof action>();
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-bold">{both((t) => t.title)}</h1>
      <p>{both((t) => t.intro)}</p>
      <Form method="post" className="space-y-3">
        <label htmlFor="flush-token" className="block font-semibold">
          {both((t) => t.token)}
        </label>
        <input id="flush-token" name="token" type="password" autoComplete="off" className="block w-full rounded border border-slate-500 px-3 py-2" />
        <button type="submit" className="rounded bg-[#0f5e63] px-4 py-2 font-semibold text-white">
          {both((t) => t.button)}
        </button>
      </Form>
      {result ? (
        <p role="status" data-flushed={result.ok}>
          {result.message}
        </p>
      ) : loaderData.flushedAt ? (
        <p className="text-sm">
          {both((t) => t.last)}: {loaderData.flushedAt}
        </p>
      ) : null}
    </div>
  );
}
