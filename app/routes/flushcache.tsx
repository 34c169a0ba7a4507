import { Form, useActionData } from "react-router";
import type { Route } from "./+types/flushcache";

/**
 * /manage/flushcache (spec §2: empty layout, no auth middleware): empties the content and page
 * caches, which rebuild themselves from the store. Nothing is lost, so it needs no sign-in, but it
 * is a POST and works at most once every 10 seconds, so it cannot be used to keep the site cold.
 */
let lastFlush = 0;
const MIN_INTERVAL_MS = 10_000;

export function loader() {
  return { flushedAt: lastFlush ? new Date(lastFlush).toISOString() : null };
}

export function action({ context }: Route.ActionArgs) {
  const now = Date.now();
  if (now - lastFlush < MIN_INTERVAL_MS) return { ok: false, message: "Der Cache wurde gerade erst geleert. / The cache was flushed a moment ago." };
  lastFlush = now;
  context.services.cache.clear();
  context.services.pageCache.clear();
  context.services.logger.info({ requestId: context.requestId }, "caches flushed");
  return { ok: true, message: "Cache geleert. / Cache flushed." };
}

export const meta: Route.MetaFunction = () => [{ title: "Cache leeren / Flush cache" }, { name: "robots", content: "noindex" }];

export default function FlushCache({ loaderData }: Route.ComponentProps) {
  const result = useActionData<typeof action>();
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-bold">Cache leeren / Flush cache</h1>
      <p>Leert die Inhalts- und Seiten-Caches; sie bauen sich aus dem Inhaltsspeicher neu auf. / Empties the content and page caches; they rebuild from the content store.</p>
      <Form method="post">
        <button type="submit" className="rounded bg-[#0f5e63] px-4 py-2 font-semibold text-white">
          Cache leeren / Flush cache
        </button>
      </Form>
      {result ? (
        <p role="status" data-flushed={result.ok}>
          {result.message}
        </p>
      ) : loaderData.flushedAt ? (
        <p className="text-sm">Zuletzt / Last: {loaderData.flushedAt}</p>
      ) : null}
    </div>
  );
}
