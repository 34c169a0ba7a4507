import { Form, useActionData } from "react-router";
import type { Route } from "./+types/flushcache";
import { LANGUAGES } from "~/i18n/languages";
import { messages, type Messages } from "~/i18n/messages";

/**
 * /manage/flushcache (spec §2: empty layout, no auth middleware): empties the content and page
 * caches, which rebuild themselves from the store. Nothing is lost, so it needs no sign-in, but it
 * is a POST and works at most once every 10 seconds, so it cannot be used to keep the site cold.
 */
let lastFlush = 0;
/** The page has no language in its address: every text in both, German first, from the dictionary. */
const both = (pick: (t: Messages["flushCache"]) => string) => LANGUAGES.map((l) => pick(messages(l).flushCache)).join(" / ");
const MIN_INTERVAL_MS = 10_000;

export function loader() {
  return { flushedAt: lastFlush ? new Date(lastFlush).toISOString() : null };
}

export function action({ context }: Route.ActionArgs) {
  const now = Date.now();
  if (now - lastFlush < MIN_INTERVAL_MS) return { ok: false, message: both((t) => t.tooSoon) };
  lastFlush = now;
  context.services.cache.clear();
  context.services.pageCache.clear();
  context.services.logger.info({ requestId: context.requestId }, "caches flushed");
  return { ok: true, message: both((t) => t.done) };
}

export const meta: Route.MetaFunction = () => [{ title: both((t) => t.title) }, { name: "robots", content: "noindex" }];

export default function FlushCache({ loaderData }: Route.ComponentProps) {
  const result = useActionData<typeof action>();
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-bold">{both((t) => t.title)}</h1>
      <p>{both((t) => t.intro)}</p>
      <Form method="post">
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
