import { useEffect, useId, useRef } from "react";
import { Form } from "react-router";
import type { Route } from "./+types/plausible";
import { admin } from "~/admin/admin.server";
import { AdminPage, buttonClass, DataTable, EmptyState, inputClass } from "~/admin/ui";
import { utcDay } from "~/analytics/collector.server";
import { analyticsReport, periodRange, type AnalyticsReport, type Period, type Row } from "~/analytics/report.server";
import { routeAccess } from "~/auth/access";
import type { Language } from "~/i18n/languages";

/** `/manage/plausible`: the analytics dashboard over the daily rollups (issue 24, decision 0029). */
export const handle = routeAccess("auth");
export { AdminErrorBoundary as ErrorBoundary } from "~/admin/error-boundary";

const texts = {
  de: {
    title: "Statistik (Plausible)",
    intro: "Besucherzahlen ohne Cookies und ohne gespeicherte IP-Adressen, gezählt nur bei Besucher:innen, die der Statistik zugestimmt haben. Ein Tag reicht von Mitternacht bis Mitternacht Weltzeit (in Deutschland 1 bzw. 2 Uhr).",
    external: "Die Website sendet ihre Ereignisse an einen externen Plausible-Server; dort steht die vollständige Statistik. Hier erscheint nur, was dieser Server selbst gezählt hat.",
    period: "Zeitraum",
    periods: { "7d": "Letzte 7 Tage", "30d": "Letzte 30 Tage", "12mo": "Letzte 12 Monate", custom: "Eigener Zeitraum" } as Record<Period, string>,
    from: "Von",
    to: "Bis",
    show: "Anzeigen",
    visitors: "Besucher:innen",
    pageviews: "Seitenaufrufe",
    bounceRate: "Absprungrate",
    duration: "Besuchsdauer",
    chart: "Besucher:innen und Seitenaufrufe pro Tag",
    day: "Tag",
    pages: "Meistbesuchte Seiten",
    page: "Seite",
    sources: "Herkunft",
    source: "Quelle",
    direct: "Direkt / keine Angabe",
    countries: "Länder",
    country: "Land",
    unknown: "Unbekannt",
    devices: "Geräte",
    device: "Gerät",
    deviceNames: { mobile: "Smartphone", tablet: "Tablet", laptop: "Laptop", desktop: "Desktop", "": "Unbekannt" } as Record<string, string>,
    events: "Eigene Ereignisse",
    event: "Ereignis",
    count: "Anzahl",
    props: "Eigenschaften der Ereignisse",
    prop: "Eigenschaft",
    value: "Wert",
    revenue: "Umsatz",
    currency: "Währung",
    amount: "Betrag",
    none: "Für diesen Zeitraum liegen noch keine Daten vor.",
    noneRows: "Keine Einträge.",
  },
  en: {
    title: "Analytics (Plausible)",
    intro: "Visitor figures without cookies and without stored IP addresses, counted only for visitors who allowed statistics. A day runs from midnight to midnight universal time (1 or 2 a.m. in Germany).",
    external: "The site sends its events to an external Plausible server, which has the full figures. This page shows only what this server counted itself.",
    period: "Period",
    periods: { "7d": "Last 7 days", "30d": "Last 30 days", "12mo": "Last 12 months", custom: "Custom period" } as Record<Period, string>,
    from: "From",
    to: "To",
    show: "Show",
    visitors: "Visitors",
    pageviews: "Page views",
    bounceRate: "Bounce rate",
    duration: "Visit duration",
    chart: "Visitors and page views per day",
    day: "Day",
    pages: "Top pages",
    page: "Page",
    sources: "Sources",
    source: "Source",
    direct: "Direct / none",
    countries: "Countries",
    country: "Country",
    unknown: "Unknown",
    devices: "Devices",
    device: "Device",
    deviceNames: { mobile: "Mobile", tablet: "Tablet", laptop: "Laptop", desktop: "Desktop", "": "Unknown" } as Record<string, string>,
    events: "Custom events",
    event: "Event",
    count: "Count",
    props: "Event properties",
    prop: "Property",
    value: "Value",
    revenue: "Revenue",
    currency: "Currency",
    amount: "Amount",
    none: "There is no data for this period yet.",
    noneRows: "No entries.",
  },
} satisfies Record<Language, unknown>;

export async function loader(args: Route.LoaderArgs) {
  const { language, services } = admin(args);
  // Events still in the buffer belong in the figures.
  await services.analytics.flush();
  const { period, from, to } = periodRange(new URL(args.request.url).searchParams, utcDay(new Date()));
  const report = await analyticsReport(services.store.db, from, to);
  return { language, period, report, external: !!services.env.PLAUSIBLE_URL, text: texts[language] };
}

type Text = (typeof texts)["de"];

export default function Plausible({ loaderData }: Route.ComponentProps) {
  const { language, period, report, external, text } = loaderData;
  const { totals } = report;
  const number = new Intl.NumberFormat(language === "de" ? "de-DE" : "en-GB");
  const percent = new Intl.NumberFormat(language === "de" ? "de-DE" : "en-GB", { style: "percent", maximumFractionDigits: 0 });
  const minutes = (seconds: number) => `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;
  const regions = safeDisplayNames(language);
  const cards: Array<[string, string]> = [
    [text.visitors, number.format(totals.visitors)],
    [text.pageviews, number.format(totals.pageviews)],
    [text.bounceRate, totals.visits ? percent.format(totals.bounces / totals.visits) : "–"],
    [text.duration, totals.visits ? minutes(totals.visitSeconds / totals.visits) : "–"],
  ];
  const dayFormat = new Intl.DateTimeFormat(language === "de" ? "de-DE" : "en-GB", { dateStyle: "medium", timeZone: "UTC" });
  return (
    <AdminPage title={text.title} intro={text.intro}>
      {external ? <p className="max-w-3xl rounded border border-amber-700 bg-amber-50 p-3">{text.external}</p> : null}
      <PeriodForm text={text} period={period} from={report.from} to={report.to} />
      <dl className="grid grid-cols-2 gap-4 md:grid-cols-4" data-analytics-totals>
        {cards.map(([label, value]) => (
          <div key={label} className="rounded border border-slate-300 bg-white p-4">
            <dt className="text-sm text-slate-700">{label}</dt>
            <dd className="text-2xl font-bold">{value}</dd>
          </div>
        ))}
      </dl>
      {totals.pageviews + totals.events === 0 ? <EmptyState>{text.none}</EmptyState> : null}
      <section aria-labelledby="chart-title" className="space-y-2">
        <h2 id="chart-title" className="text-lg font-semibold">
          {text.chart}
        </h2>
        <DailyChart series={report.series} labels={{ visitors: text.visitors, pageviews: text.pageviews }} />
        <table className="sr-only">
          <caption>{text.chart}</caption>
          <thead>
            <tr>
              <th scope="col">{text.day}</th>
              <th scope="col">{text.visitors}</th>
              <th scope="col">{text.pageviews}</th>
            </tr>
          </thead>
          <tbody>
            {report.series.map((s) => (
              <tr key={s.day}>
                <th scope="row">{dayFormat.format(new Date(`${s.day}T00:00:00Z`))}</th>
                <td>{number.format(s.visitors)}</td>
                <td>{number.format(s.pageviews)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <div className="grid gap-6 lg:grid-cols-2">
        <TopTable title={text.pages} heading={text.page} rows={report.pages} label={(v) => v} columns={[[text.visitors, "visitors"], [text.pageviews, "pageviews"]]} text={text} number={number} />
        <TopTable title={text.sources} heading={text.source} rows={report.sources} label={(v) => v || text.direct} columns={[[text.visitors, "visitors"]]} text={text} number={number} />
        <TopTable title={text.countries} heading={text.country} rows={report.countries} label={(v) => (v ? (regions?.of(v) ?? v) : text.unknown)} columns={[[text.visitors, "visitors"]]} text={text} number={number} />
        <TopTable title={text.devices} heading={text.device} rows={report.devices} label={(v) => text.deviceNames[v] ?? v} columns={[[text.visitors, "visitors"]]} text={text} number={number} />
        <TopTable title={text.events} heading={text.event} rows={report.events} label={(v) => v} columns={[[text.visitors, "visitors"], [text.count, "events"]]} text={text} number={number} />
      </div>
      {report.props.length ? (
        <section className="space-y-2">
          <h2 className="text-lg font-semibold">{text.props}</h2>
          <DataTable headings={[text.event, text.prop, text.value, text.count]}>
            {report.props.map((p) => (
              <tr key={`${p.name}|${p.prop}|${p.value}`} className="border-b border-slate-200">
                <td className="p-2">{p.name}</td>
                <td className="p-2">{p.prop}</td>
                <td className="p-2">{p.value}</td>
                <td className="p-2">{number.format(p.events)}</td>
              </tr>
            ))}
          </DataTable>
        </section>
      ) : null}
      {report.revenue.length ? (
        <section className="space-y-2">
          <h2 className="text-lg font-semibold">{text.revenue}</h2>
          <DataTable headings={[text.event, text.count, text.amount]}>
            {report.revenue.map((r) => (
              <tr key={`${r.name}|${r.currency}`} className="border-b border-slate-200">
                <td className="p-2">{r.name}</td>
                <td className="p-2">{number.format(r.events)}</td>
                <td className="p-2">{money(language, r.currency, r.amount)}</td>
              </tr>
            ))}
          </DataTable>
        </section>
      ) : null}
    </AdminPage>
  );
}

function safeDisplayNames(language: Language): Intl.DisplayNames | undefined {
  try {
    return new Intl.DisplayNames([language], { type: "region" });
  } catch {
    return undefined;
  }
}

function money(language: Language, currency: string, amount: number): string {
  try {
    return new Intl.NumberFormat(language === "de" ? "de-DE" : "en-GB", { style: "currency", currency }).format(amount);
  } catch {
    return `${amount} ${currency}`;
  }
}

function PeriodForm({ text, period, from, to }: { text: Text; period: Period; from: string; to: string }) {
  const id = useId();
  return (
    <Form method="get" className="flex flex-wrap items-end gap-3" aria-label={text.period}>
      <div>
        <label htmlFor={`${id}-period`} className="mb-1 block font-semibold">
          {text.period}
        </label>
        <select id={`${id}-period`} name="period" defaultValue={period} className={inputClass}>
          {(Object.keys(text.periods) as Period[]).map((p) => (
            <option key={p} value={p}>
              {text.periods[p]}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor={`${id}-from`} className="mb-1 block font-semibold">
          {text.from}
        </label>
        <input id={`${id}-from`} type="date" name="from" defaultValue={from} className={inputClass} />
      </div>
      <div>
        <label htmlFor={`${id}-to`} className="mb-1 block font-semibold">
          {text.to}
        </label>
        <input id={`${id}-to`} type="date" name="to" defaultValue={to} className={inputClass} />
      </div>
      <button type="submit" className={buttonClass()}>
        {text.show}
      </button>
    </Form>
  );
}

function TopTable(props: {
  title: string;
  heading: string;
  rows: Row[];
  label: (value: string) => string;
  columns: Array<[string, "visitors" | "pageviews" | "events"]>;
  text: Text;
  number: Intl.NumberFormat;
}) {
  const { title, heading, rows, label, columns, text, number } = props;
  return (
    <section className="space-y-2">
      <h2 className="text-lg font-semibold">{title}</h2>
      {rows.length ? (
        <DataTable headings={[heading, ...columns.map(([name]) => name)]}>
          {rows.map((row) => (
            <tr key={row.value} className="border-b border-slate-200">
              <td className="p-2 break-all">{label(row.value)}</td>
              {columns.map(([name, field]) => (
                <td key={name} className="p-2">
                  {number.format(row[field])}
                </td>
              ))}
            </tr>
          ))}
        </DataTable>
      ) : (
        <p className="text-slate-700">{text.noneRows}</p>
      )}
    </section>
  );
}

/** uPlot, loaded only here (and only in the browser); the table beside it says the same for screen readers. */
function DailyChart({ series, labels }: { series: AnalyticsReport["series"]; labels: { visitors: string; pageviews: string } }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let plot: { destroy(): void } | undefined;
    let cancelled = false;
    void Promise.all([import("uplot"), import("uplot/dist/uPlot.min.css")]).then(([{ default: UPlot }]) => {
      const el = ref.current;
      if (cancelled || !el) return;
      plot = new UPlot(
        {
          width: Math.max(300, el.clientWidth),
          height: 260,
          tzDate: (ts) => UPlot.tzDate(new Date(ts * 1000), "Etc/UTC"),
          series: [{}, { label: labels.visitors, stroke: "#0f5e63", width: 2 }, { label: labels.pageviews, stroke: "#9a3412", width: 2 }],
        },
        [series.map((s) => Date.parse(`${s.day}T00:00:00Z`) / 1000), series.map((s) => s.visitors), series.map((s) => s.pageviews)],
        el,
      );
    });
    return () => {
      cancelled = true;
      plot?.destroy();
    };
  }, [series, labels.visitors, labels.pageviews]);
  return <div ref={ref} aria-hidden="true" className="min-h-[260px] overflow-hidden rounded border border-slate-300 bg-white" data-analytics-chart />;
}
