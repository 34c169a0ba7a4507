import { Link } from "react-router";
import { localizedPath } from "~/i18n/languages";
import { facetValues } from "~/practitioners/directory";
import { AppointmentList, Directory, PractitionerCard, profilePath, useHeading2 } from "~/practitioners/components";
import { useSite } from "~/site/site-context";
import type { BlockProps } from "./types";

const str = (v: unknown) => (typeof v === "string" ? v : "");

function Section({ heading, children }: { heading?: string; children: React.ReactNode }) {
  const h2 = useHeading2();
  return (
    <section className="mx-auto max-w-6xl px-4 py-10">
      {heading ? <h2 className={`mb-6 ${h2}`}>{heading}</h2> : null}
      {children}
    </section>
  );
}

export function PractitionerSingleBlock({ block, data }: BlockProps) {
  const { siteVariant, t } = useSite();
  const id = (block.practitioner as string[] | undefined)?.[0];
  const p = data.practitioners.find((x) => x.id === id);
  if (!p) return null;
  const slots = data.appointments.filter((a) => a.practitioner === p.id && !a.booked).slice(0, 6);
  return (
    <Section>
      <div className="grid gap-6 md:grid-cols-2">
        <PractitionerCard p={p} />
        {siteVariant === "booking" ? (
          <div>
            <h3 className="mb-2 font-semibold">{t.freeAppointments}</h3>
            <AppointmentList slots={slots} />
          </div>
        ) : null}
      </div>
    </Section>
  );
}

export function PractitionerListBlock({ block, data }: BlockProps) {
  const limit = typeof block.limit === "number" ? block.limit : 10;
  return (
    <Section heading={str(block.heading)}>
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {data.practitioners.slice(0, limit).map((p) => (
          <li key={p.id}>
            <PractitionerCard p={p} />
          </li>
        ))}
      </ul>
    </Section>
  );
}

export function PractitionerSmallListBlock({ block, data }: BlockProps) {
  const { language, t } = useSite();
  const limit = typeof block.limit === "number" ? block.limit : 5;
  return (
    <Section heading={str(block.heading)}>
      <ul className="divide-y divide-black/10 rounded-lg border border-black/10">
        {data.practitioners.slice(0, limit).map((p) => (
          <li key={p.id} className="flex items-center justify-between gap-4 px-4 py-3">
            <Link to={profilePath(language, p.slug)} prefetch="intent" className="font-medium hover:underline">
              {p.name}
            </Link>
            <span className="text-sm text-black/80">{p.city}</span>
          </li>
        ))}
      </ul>
      <Link to={localizedPath(language, "/practitioners")} prefetch="intent" className="mt-4 inline-block font-semibold underline">
        {t.allPractitioners}
      </Link>
    </Section>
  );
}

export function PractitionerOverviewBlock({ block, data }: BlockProps) {
  const { language } = useSite();
  if (!data.directory) return null;
  return (
    <Section heading={str(block.heading)}>
      {block.intro ? <p className="mb-6 max-w-3xl">{str(block.intro)}</p> : null}
      <Directory result={data.directory} facets={facetValues(data.practitioners)} action={localizedPath(language, "/practitioners")} />
    </Section>
  );
}

export function BookAppointmentBlock({ block, data }: BlockProps) {
  const { siteVariant, t } = useSite();
  const byId = new Map(data.practitioners.map((p) => [p.id, p]));
  const free = data.appointments.filter((a) => !a.booked).slice(0, 12);
  return (
    <Section heading={str(block.heading) || t.bookAppointment}>
      {siteVariant === "booking" ? <AppointmentList slots={free} practitioners={byId} /> : null}
      <p className="mt-4 text-sm" data-placeholder="book-appointment">
        {t.comingSoon}
      </p>
    </Section>
  );
}

export function RegistrationBlock({ block }: BlockProps) {
  const { language, t } = useSite();
  return (
    <Section heading={str(block.heading) || t.registration}>
      {block.intro ? <p className="mb-4 max-w-3xl">{str(block.intro)}</p> : null}
      <Link to={localizedPath(language, "/practitioners/register")} className="inline-block rounded bg-[var(--color-main,#0f5e63)] px-5 py-3 font-semibold text-white" data-placeholder="registration">
        {t.registration}
      </Link>
    </Section>
  );
}
