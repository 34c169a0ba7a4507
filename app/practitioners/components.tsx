import { Form, Link } from "react-router";
import { localizedPath } from "~/i18n/languages";
import { ConsentedMap } from "~/maps/consented-map";
import { formatSlot, groupByBerlinDay } from "~/booking/days";
import { useSite } from "~/site/site-context";
import { directoryParams, withParams, type DirectoryQuery, type DirectoryResult, type Facets, type PractitionerSummary } from "./directory";
import type { AppointmentSlot } from "./practitioners.server";
import { own } from "~/lib/input";
import { profilePath } from "./paths";




/** A practitioner's card; its name is a heading one level below whatever heads the list it is in. */
export function PractitionerCard({ p, nextSlot, level = 3 }: { p: PractitionerSummary; nextSlot?: string; level?: 2 | 3 }) {
  const { language, t } = useSite();
  const Heading = level === 2 ? "h2" : "h3";
  return (
    <article className="flex h-full flex-col rounded-lg border border-black/10 p-5" data-practitioner={p.slug}>
      <Heading className="text-lg font-semibold">
        <Link to={profilePath(language, p.slug)} prefetch="intent" className="hover:underline">
          {p.name}
        </Link>
      </Heading>
      {p.speciality ? <p className="text-sm text-black/80">{p.speciality}</p> : null}
      <p className="mt-2">
        {p.zip ? `${p.zip} ` : ""}
        {p.city}
      </p>
      {p.languages.length ? (
        <p className="mt-1 text-sm">
          {t.languagesSpoken}: {p.languages.map((l) => l.toUpperCase()).join(", ")}
        </p>
      ) : null}
      {nextSlot ? (
        <p className="mt-auto pt-3 text-sm font-medium" data-next-slot>
          {t.nextFreeAppointment}: <time dateTime={nextSlot}>{formatSlot(language, nextSlot)}</time>
        </p>
      ) : null}
    </article>
  );
}

export function PractitionerMap({ practitioners }: { practitioners: PractitionerSummary[] }) {
  const { mapDefault, mapZoom, language } = useSite();
  const markers = practitioners.flatMap((p) =>
    [p.coords, p.coords2]
      .filter((c): c is NonNullable<typeof c> => !!c)
      .map((position, i) => ({ id: `${p.id}-${i}`, position, label: `${p.name}, ${p.city}`, href: profilePath(language, p.slug) })),
  );
  return <ConsentedMap center={mapDefault} zoom={mapZoom} markers={markers} />;
}

/**
 * The directory's map: every practitioner the search finds, not only this page's, as clustered
 * markers asked for the visible area (api.practitioners-map.ts).
 */
export function DirectoryMap({ query }: { query: DirectoryQuery }) {
  const { mapDefault, mapZoom, language } = useSite();
  const params = directoryParams(query);
  if (language !== "de") params.set("lang", language);
  return <ConsentedMap center={mapDefault} zoom={mapZoom} clusters={{ url: withParams("/api/practitioners/map", params) }} />;
}

function FilterSelect({ name, label, any, value, options }: { name: string; label: string; any: string; value?: string; options: Array<[string, string]> }) {
  return (
    <label className="flex flex-col text-sm font-medium">
      {label}
      <select name={name} defaultValue={value ?? ""} className="mt-1 rounded border border-black/30 bg-white px-3 py-2 text-base">
        <option value="">{any}</option>
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}


/**
 * Search, filters, results and paging. A GET form: it works without JavaScript, every state has
 * its own URL, and with JavaScript React Router swaps the results in place.
 */
export function Directory({ result, facets, action, cardLevel = 2 }: { result: DirectoryResult; facets: Facets; action: string; cardLevel?: 2 | 3 }) {
  const { t } = useSite();
  const { query } = result;
  const pageHref = (page: number) => {
    const params = directoryParams(query);
    if (page > 1) params.set("page", String(page));
    return withParams(action, params);
  };
  return (
    <div className="space-y-6">
      <Form method="get" action={action} role="search" className="flex flex-wrap items-end gap-3 rounded-lg bg-black/5 p-4">
        <label className="flex grow flex-col text-sm font-medium">
          {t.search}
          <input type="search" name="q" defaultValue={query.q ?? ""} placeholder={t.searchPlaceholder} className="mt-1 rounded border border-black/30 bg-white px-3 py-2 text-base" />
        </label>
        <FilterSelect name="language" label={t.filterLanguage} any={t.allLanguages} value={query.language} options={facets.languages.map((l) => [l, l.toUpperCase()])} />
        <FilterSelect name="country" label={t.filterCountry} any={t.allCountries} value={query.country} options={facets.countries.map((c) => [c, c])} />
        <button type="submit" className="rounded bg-[var(--color-main,#0f5e63)] px-4 py-2 font-semibold text-white">
          {t.applyFilters}
        </button>
      </Form>
      <p role="status" className="font-medium">
        {t.resultsCount(result.total)}
      </p>
      {result.items.length ? (
        <ul className="grid gap-4 page-sm:grid-cols-2 page-lg:grid-cols-3" data-results>
          {result.items.map((p) => (
            <li key={p.id}>
              <PractitionerCard p={p} nextSlot={result.nextSlots ? own(result.nextSlots, p.id) : undefined} level={cardLevel} />
            </li>
          ))}
        </ul>
      ) : (
        <p>{t.noResults}</p>
      )}
      <Paging page={result.page} pages={result.pages} href={pageHref} />
      <DirectoryMap query={query} />
    </div>
  );
}

/** Links to the previous and next page (plain links: they work without JavaScript). */
export function Paging({ page, pages, href }: { page: number; pages: number; href: (page: number) => string }) {
  const { t } = useSite();
  if (pages <= 1) return null;
  return (
    <nav aria-label={t.pageOf(page, pages)} className="flex flex-wrap items-center gap-4">
      {page > 1 ? (
        <Link to={href(page - 1)} rel="prev" className="underline">
          {t.previousPageOf(page - 1, pages)}
        </Link>
      ) : null}
      <span>{t.pageOf(page, pages)}</span>
      {page < pages ? (
        <Link to={href(page + 1)} rel="next" className="underline">
          {t.nextPageOf(page + 1, pages)}
        </Link>
      ) : null}
    </nav>
  );
}

export function AppointmentList({ slots, practitioners }: { slots: AppointmentSlot[]; practitioners?: Map<string, PractitionerSummary> }) {
  const { language, t } = useSite();
  if (!slots.length) return <p>{t.noAppointments}</p>;
  return (
    <div className="space-y-4" data-appointments>
      {groupByBerlinDay(slots, language).map((day) => (
        <section key={day.day} aria-label={day.label} data-appointment-day={day.day}>
          <h3 className="mb-2 text-sm font-semibold tracking-wide uppercase">{day.label}</h3>
          <ul className="flex flex-wrap gap-2">
            {day.slots.map((s) => {
              const p = practitioners?.get(s.practitioner);
              const text = `${s.time}${p ? ` · ${p.name}` : ""}`;
              return (
                <li key={s.id}>
                  {s.booked ? (
                    <span className="inline-block rounded border border-black/10 px-3 py-2 text-black/60 line-through">
                      <time dateTime={s.start}>{text}</time>
                      <span className="sr-only"> ({t.booked})</span>
                    </span>
                  ) : (
                    <Link
                      to={localizedPath(language, `/appointments/book/${encodeURIComponent(s.id)}`)}
                      className="inline-block rounded border border-[var(--color-main,#0f5e63)] px-3 py-2 hover:bg-[var(--color-main,#0f5e63)] hover:text-white"
                      data-slot={s.id}
                      aria-label={`${t.bookAppointment}: ${formatSlot(language, s.start, "full")}${p ? `, ${p.name}` : ""}`}
                    >
                      <time dateTime={s.start}>{text}</time>
                    </Link>
                  )}
                </li>
              );
            })}
          </ul>
        </section>
      ))}
    </div>
  );
}


/** A practitioner's next free slots, in the booking variant only. */
export function FreeAppointments({ slots, practitioner, limit, heading: Heading }: { slots: AppointmentSlot[]; practitioner: string; limit: number; heading: "h2" | "h3" }) {
  const { siteVariant, t } = useSite();
  if (siteVariant !== "booking") return null;
  return (
    <div>
      <Heading className="mb-2 font-semibold">{t.freeAppointments}</Heading>
      <AppointmentList slots={slots.filter((a) => a.practitioner === practitioner && !a.booked).slice(0, limit)} />
    </div>
  );
}
