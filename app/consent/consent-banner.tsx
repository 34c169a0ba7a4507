import { Form, useLocation } from "react-router";
import { useSite } from "~/site/site-context";
import { OPTIONAL_CATEGORIES } from "./consent";

/**
 * The consent banner: shown until the visitor decides, and again from the footer link (#consent).
 * A plain form posting to /api/consent, also without JavaScript. It always reloads the page: the
 * choice decides the page's Content-Security-Policy (the map's tile service), which only a new
 * document can change.
 */
export function ConsentBanner() {
  const { consent, t, language } = useSite();
  const location = useLocation();
  const redirectTo = `${location.pathname}${location.search}`;
  return (
    <section
      id="consent"
      aria-labelledby="consent-title"
      className={`${consent.decided ? "hidden target:block" : "block"} fixed inset-x-0 bottom-0 z-40 border-t border-black/20 bg-white p-4 shadow-2xl`}
    >
      <Form method="post" action="/api/consent" reloadDocument className="mx-auto flex max-w-4xl flex-col gap-3">
        <h2 id="consent-title" className="text-lg font-semibold">
          {t.consentTitle}
        </h2>
        <p className="text-sm">{t.consentText}</p>
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <input type="hidden" name="language" value={language} />
        <fieldset className="flex flex-wrap gap-x-5 gap-y-2 text-sm">
          <legend className="sr-only">{t.consentSettings}</legend>
          <label className="flex items-center gap-2">
            <input type="checkbox" checked disabled readOnly />
            {t.consentCategories.necessary}
          </label>
          {OPTIONAL_CATEGORIES.map((category) => (
            <label key={category} className="flex items-center gap-2">
              <input type="checkbox" name="category" value={category} defaultChecked={consent[category]} />
              {t.consentCategories[category]}
            </label>
          ))}
        </fieldset>
        <div className="flex flex-wrap gap-2">
          <button type="submit" name="intent" value="all" className="rounded bg-[var(--color-main,#0f5e63)] px-4 py-2 font-semibold text-white">
            {t.consentAcceptAll}
          </button>
          <button type="submit" name="intent" value="necessary" className="rounded border border-black/40 px-4 py-2">
            {t.consentNecessaryOnly}
          </button>
          <button type="submit" name="intent" value="save" className="rounded border border-black/40 px-4 py-2">
            {t.consentSave}
          </button>
        </div>
      </Form>
    </section>
  );
}
