import { Link } from "react-router";
import { localizedPath } from "~/i18n/languages";
import { AppointmentList, Directory, FreeAppointments, PractitionerCard } from "~/practitioners/components";
import { profilePath } from "~/practitioners/paths";
import { useSite } from "~/site/site-context";
import { BlockSection, text } from "./block-section";
import type { BlockProps } from "./types";

export function PractitionerSingleBlock({ block, data }: BlockProps) {
  const id = (block.practitioner as string[] | undefined)?.[0];
  const p = data.practitioners.find((x) => x.id === id);
  if (!p) return null;
  return (
    <BlockSection width="wide">
      <div className="grid gap-6 md:grid-cols-2">
        <PractitionerCard p={p} />
        <FreeAppointments slots={data.appointments} practitioner={p.id} limit={6} heading="h3" />
      </div>
    </BlockSection>
  );
}

export function PractitionerListBlock({ block, data }: BlockProps) {
  const limit = typeof block.limit === "number" ? block.limit : 10;
  return (
    <BlockSection heading={text(block.heading)} width="wide">
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {data.practitioners.slice(0, limit).map((p) => (
          <li key={p.id}>
            <PractitionerCard p={p} />
          </li>
        ))}
      </ul>
    </BlockSection>
  );
}

export function PractitionerSmallListBlock({ block, data }: BlockProps) {
  const { language, t } = useSite();
  const limit = typeof block.limit === "number" ? block.limit : 5;
  return (
    <BlockSection heading={text(block.heading)} width="wide">
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
    </BlockSection>
  );
}

export function PractitionerOverviewBlock({ block, data }: BlockProps) {
  const { language } = useSite();
  if (!data.directory) return null;
  return (
    <BlockSection heading={text(block.heading)} width="wide">
      {block.intro ? <p className="mb-6 max-w-3xl">{text(block.intro)}</p> : null}
      <Directory result={data.directory} facets={data.facets} action={localizedPath(language, "/practitioners")} />
    </BlockSection>
  );
}

export function BookAppointmentBlock({ block, data }: BlockProps) {
  const { siteVariant, t } = useSite();
  const byId = new Map(data.practitioners.map((p) => [p.id, p]));
  const free = data.appointments.filter((a) => !a.booked).slice(0, 12);
  return (
    <BlockSection heading={text(block.heading) || t.bookAppointment} width="wide">
      {siteVariant === "booking" ? <AppointmentList slots={free} practitioners={byId} /> : null}
      <p className="mt-4 text-sm" data-placeholder="book-appointment">
        {t.comingSoon}
      </p>
    </BlockSection>
  );
}

export function RegistrationBlock({ block }: BlockProps) {
  const { language, t } = useSite();
  return (
    <BlockSection heading={text(block.heading) || t.registration} width="wide">
      {block.intro ? <p className="mb-4 max-w-3xl">{text(block.intro)}</p> : null}
      <Link to={localizedPath(language, "/practitioners/register")} className="inline-block rounded bg-[var(--color-main,#0f5e63)] px-5 py-3 font-semibold text-white" data-placeholder="registration">
        {t.registration}
      </Link>
    </BlockSection>
  );
}
