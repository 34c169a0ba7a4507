import { useId, useMemo, useState, type ComponentType } from "react";
import { useFetcher, useLocation, type FormProps } from "react-router";
import type { Confirmation } from "~/admin/admin.server";
import { buttonClass, ConfirmStep, inputClass, SaveNotice } from "~/admin/ui";
import { groupByBerlinDay } from "~/booking/days";
import { appointmentTexts, type AppointmentTexts } from "./texts";
import { APPOINTMENTS_PATH, type AdminSlot, type SlotView } from "./view";

interface Result {
  ok: boolean;
  message: string;
  errors?: Record<string, string[]>;
  /** The server's question before a delete or a cancellation (issue 22, point 4). */
  confirm?: Confirmation;
}

/**
 * One practitioner's slots by Berlin day, with who booked, cancelling, deleting free slots and
 * creating new ones. Shared by /manage/appointments and the book-appointment block's edit variant:
 * changes go through a fetcher to the screen's action (the loaders revalidate after it); the range
 * and the pages through `GetForm` — the screen's own Form (the URL changes), or in a page the
 * fetcher that loaded the view.
 */
export function SlotManager({ view, GetForm, hidden = {}, fallback }: { view: SlotView; GetForm: ComponentType<FormProps>; hidden?: Record<string, string>; fallback?: Result }) {
  const t = appointmentTexts[view.language];
  const fetcher = useFetcher<Result>({ key: `appointments-${view.practitioner.id}` });
  const result = fetcher.data ?? fallback;
  const busy = fetcher.state !== "idle";
  const Mutate = fetcher.Form;
  const keep = { practitioner: view.practitioner.id, ...hidden };
  const removeFormId = useId();
  const location = useLocation();
  // The question's button posts through the same fetcher to the screen's action (also from a page's edit mode).
  const ConfirmForm = useMemo(() => (props: FormProps) => <Mutate {...props} action={APPOINTMENTS_PATH} />, [Mutate]);
  return (
    <div className="space-y-6" data-slot-manager={view.practitioner.id}>
      <ConfirmStep confirm={busy ? undefined : result?.confirm} Form={ConfirmForm} cancelHref={`${location.pathname}${location.search}`} />
      <SaveNotice result={result} />
      <GetForm method="get" action={APPOINTMENTS_PATH} className="flex flex-wrap items-end gap-3 rounded border border-slate-300 bg-white p-4">
        {Object.entries(keep).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <fieldset className="flex flex-wrap items-end gap-3">
          <legend className="mb-1 font-semibold">{t.range}</legend>
          <DateInput label={t.from} name="from" value={view.from} />
          <DateInput label={t.to} name="to" value={view.to} />
          <button type="submit" className={buttonClass("secondary")}>
            {t.show}
          </button>
        </fieldset>
      </GetForm>

      <section aria-labelledby={`${removeFormId}-h`} className="space-y-4">
        <h2 id={`${removeFormId}-h`} className="text-xl font-bold">
          {t.slotsOf(view.practitioner.name)} <span className="text-base font-normal text-slate-700">({t.total(view.slots.total)})</span>
        </h2>
        {view.slots.items.length ? (
          <SlotDays slots={view.slots.items} t={t} language={view.language} formId={removeFormId} busy={busy} Mutate={Mutate} practitionerId={view.practitioner.id} />
        ) : (
          <p className="rounded border border-dashed border-slate-400 p-4 text-slate-700" data-empty-state>
            {t.noSlots}
          </p>
        )}
        <Mutate method="post" action={APPOINTMENTS_PATH} id={removeFormId}>
          <input type="hidden" name="intent" value="remove" />
          <input type="hidden" name="practitioner" value={view.practitioner.id} />
          {view.slots.items.some((s) => !s.booked) ? (
            // Not red here: the server asks first (ConfirmStep), where the button that deletes is.
            <button type="submit" className={buttonClass("secondary")} disabled={busy} data-remove-selected>
              {t.removeSelected}
            </button>
          ) : null}
        </Mutate>
        {view.slots.pages > 1 ? (
          <GetForm method="get" action={APPOINTMENTS_PATH} className="flex items-center gap-3">
            {Object.entries({ ...keep, from: view.from, to: view.to }).map(([name, value]) => (
              <input key={name} type="hidden" name={name} value={value} />
            ))}
            <span>
              {t.page} {view.slots.page} / {view.slots.pages}
            </span>
            {view.slots.page > 1 ? (
              <button type="submit" name="page" value={view.slots.page - 1} className={buttonClass("secondary")}>
                ←
                <span className="sr-only">{`${t.page} ${view.slots.page - 1}`}</span>
              </button>
            ) : null}
            {view.slots.page < view.slots.pages ? (
              <button type="submit" name="page" value={view.slots.page + 1} className={buttonClass("secondary")}>
                →<span className="sr-only">{`${t.page} ${view.slots.page + 1}`}</span>
              </button>
            ) : null}
          </GetForm>
        ) : null}
      </section>

      <CreateSlots t={t} practitionerId={view.practitioner.id} Mutate={Mutate} busy={busy} errors={result && !result.ok ? result.errors : undefined} />
    </div>
  );
}

function DateInput({ label, name, value, type = "date", required = true }: { label: string; name: string; value?: string; type?: string; required?: boolean }) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-semibold">
        {label}
      </label>
      <input id={id} name={name} type={type} defaultValue={value} required={required} className={inputClass} />
    </div>
  );
}

type MutateForm = ComponentType<FormProps>;

function SlotDays({ slots, t, language, formId, busy, Mutate, practitionerId }: { slots: AdminSlot[]; t: AppointmentTexts; language: SlotView["language"]; formId: string; busy: boolean; Mutate: MutateForm; practitionerId: string }) {
  return (
    <div className="space-y-4">
      {groupByBerlinDay(slots, language).map((day) => (
        <div key={day.day} data-day={day.day}>
          <h3 className="mb-2 font-semibold">{day.label}</h3>
          <ul className="divide-y divide-slate-200 rounded border border-slate-300 bg-white">
            {day.slots.map((slot) => (
              <li key={slot.id} className="flex flex-wrap items-start gap-3 p-3" data-admin-slot={slot.id} data-booked={slot.booked || undefined}>
                {slot.booked ? (
                  <span className="h-5 w-5" aria-hidden="true" />
                ) : (
                  <input type="checkbox" name="slot" value={slot.id} form={formId} aria-label={t.select(`${day.label} ${slot.time}`)} className="mt-0.5 h-5 w-5" />
                )}
                <span className="w-16 font-mono font-semibold">{slot.time}</span>
                <span className="text-slate-700">{t.minutes(slot.durationMinutes)}</span>
                <span className={`rounded px-2 py-0.5 text-xs font-semibold ${slot.booked ? "bg-amber-100 text-amber-900" : "bg-green-100 text-green-900"}`}>{slot.booked ? t.booked : t.free}</span>
                {slot.booked ? (
                  <div className="basis-full space-y-2 pl-8">
                    {slot.booker ? (
                      <dl className="grid grid-cols-[auto_1fr] gap-x-3 text-sm" data-booker>
                        <dt className="font-semibold">{t.name}</dt>
                        <dd data-content>{slot.booker.name}</dd>
                        <dt className="font-semibold">{t.email}</dt>
                        <dd>
                          <a className="underline" href={`mailto:${slot.booker.email}`}>
                            {slot.booker.email}
                          </a>
                        </dd>
                        {slot.booker.phone ? (
                          <>
                            <dt className="font-semibold">{t.phone}</dt>
                            <dd>{slot.booker.phone}</dd>
                          </>
                        ) : null}
                        {slot.booker.note ? (
                          <>
                            <dt className="font-semibold">{t.note}</dt>
                            <dd className="whitespace-pre-line">{slot.booker.note}</dd>
                          </>
                        ) : null}
                      </dl>
                    ) : (
                      <p className="text-sm text-slate-700">{t.noBooker}</p>
                    )}
                    <Mutate method="post" action={APPOINTMENTS_PATH}>
                      <input type="hidden" name="intent" value="cancel" />
                      <input type="hidden" name="practitioner" value={practitionerId} />
                      <input type="hidden" name="slot" value={slot.id} />
                      <button type="submit" className={buttonClass("secondary")} disabled={busy}>
                        {t.cancelBooking}
                        <span className="sr-only">{` ${day.label} ${slot.time}`}</span>
                      </button>
                    </Mutate>
                  </div>
                ) : null}
              </li>
            ))}
          </ul>
        </div>
      ))}
    </div>
  );
}

function FieldError({ id, errors }: { id: string; errors?: string[] }) {
  return errors?.length ? (
    <p id={id} className="mt-1 text-sm text-red-800">
      {errors.join(" ")}
    </p>
  ) : null;
}

/** The form for one slot or a weekly series: the mode picks which fields are sent and checked. */
function CreateSlots({ t, practitionerId, Mutate, busy, errors }: { t: AppointmentTexts; practitionerId: string; Mutate: MutateForm; busy: boolean; errors?: Record<string, string[]> }) {
  const [mode, setMode] = useState<"single" | "series">("series");
  const id = useId();
  const field = (name: string, label: string, type: string, extra: { defaultValue?: string; min?: number; max?: number; optional?: boolean; help?: string } = {}) => (
    <div>
      <label htmlFor={`${id}-${name}`} className="mb-1 block text-sm font-semibold">
        {label}
      </label>
      <input
        id={`${id}-${name}`}
        name={name}
        type={type}
        required={!extra.optional}
        defaultValue={extra.defaultValue}
        min={extra.min}
        max={extra.max}
        aria-invalid={errors?.[name] ? true : undefined}
        aria-describedby={errors?.[name] ? `${id}-${name}-error` : extra.help ? `${id}-${name}-help` : undefined}
        className={inputClass}
      />
      {extra.help && !errors?.[name] ? (
        <p id={`${id}-${name}-help`} className="mt-1 text-sm text-slate-700">
          {extra.help}
        </p>
      ) : null}
      <FieldError id={`${id}-${name}-error`} errors={errors?.[name]} />
    </div>
  );
  return (
    <Mutate method="post" action={APPOINTMENTS_PATH} className="max-w-3xl space-y-4 rounded border border-slate-300 bg-white p-4" data-create-slots>
      <h2 className="text-xl font-bold">{t.createTitle}</h2>
      <input type="hidden" name="practitioner" value={practitionerId} />
      <fieldset className="flex flex-wrap gap-4">
        <legend className="sr-only">{t.createTitle}</legend>
        {(["series", "single"] as const).map((m) => (
          <label key={m} className="flex items-center gap-2">
            <input type="radio" name="intent" value={m === "series" ? "create-series" : "create-single"} checked={mode === m} onChange={() => setMode(m)} className="h-5 w-5" />
            {m === "series" ? t.series : t.single}
          </label>
        ))}
      </fieldset>
      {mode === "single" ? (
        <div className="grid gap-3 sm:grid-cols-3">
          {field("date", t.date, "date")}
          {field("time", t.time, "time", { defaultValue: "09:00" })}
          {field("duration", t.duration, "number", { defaultValue: "30", min: 5, max: 240 })}
        </div>
      ) : (
        <>
          <fieldset aria-describedby={errors?.weekdays ? `${id}-weekdays-error` : undefined}>
            <legend className="mb-1 font-semibold">{t.weekdays}</legend>
            <div className="flex flex-wrap gap-3">
              {t.weekdayNames.map((name, i) => (
                <label key={name} className="flex items-center gap-2">
                  <input type="checkbox" name="weekday" value={i + 1} className="h-5 w-5" />
                  {name}
                </label>
              ))}
            </div>
            <FieldError id={`${id}-weekdays-error`} errors={errors?.weekdays} />
          </fieldset>
          <div className="grid gap-3 sm:grid-cols-2 md:grid-cols-3">
            {field("time", t.time, "time", { defaultValue: "09:00" })}
            {field("until", t.until, "time", { optional: true, help: t.untilHelp })}
            {field("duration", t.duration, "number", { defaultValue: "30", min: 5, max: 240 })}
            {field("from", t.seriesFrom, "date")}
            {field("to", t.seriesTo, "date")}
          </div>
        </>
      )}
      <button type="submit" className={buttonClass()} disabled={busy}>
        {t.create}
      </button>
    </Mutate>
  );
}
