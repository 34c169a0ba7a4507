import { Form, useLocation } from "react-router";
import { useSite } from "~/site/site-context";

/**
 * Stands in for a map until the visitor allows functional cookies: nothing is fetched from the
 * tile service before that. The button grants "functional" and keeps the other choices; the page
 * reloads, because only a new document gets the Content-Security-Policy that admits the tiles.
 */
export function MapConsentPlaceholder() {
  const { consent, t } = useSite();
  const location = useLocation();
  const keep = (["statistic", "marketing", "unclassified"] as const).filter((c) => consent[c]);
  return (
    <div className="flex h-80 flex-col items-center justify-center gap-3 rounded-lg border border-dashed border-black/30 bg-[var(--color-neutral,#f3ede4)] p-6 text-center" data-map-placeholder>
      <p className="font-semibold">{t.mapConsentTitle}</p>
      <p className="max-w-md text-sm">{t.mapConsentText}</p>
      <Form method="post" action="/api/consent" reloadDocument>
        <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
        <input type="hidden" name="intent" value="save" />
        <input type="hidden" name="category" value="functional" />
        {keep.map((c) => (
          <input key={c} type="hidden" name="category" value={c} />
        ))}
        <button type="submit" className="rounded bg-[var(--color-main,#0f5e63)] px-4 py-2 font-semibold text-white">
          {t.mapConsentButton}
        </button>
      </Form>
    </div>
  );
}
