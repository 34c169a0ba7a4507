import { useEffect } from "react";
import { useFetcher } from "react-router";
import { SlotManager } from "~/admin/appointments/manager";
import type { ScreenData } from "~/admin/appointments/screen.server";
import { appointmentTexts } from "~/admin/appointments/texts";
import { APPOINTMENTS_PATH } from "~/admin/appointments/view";
import { useSite } from "~/site/site-context";
import { BlockSection, text } from "../block-section";
import type { BlockProps } from "../types";

/**
 * The book-appointment block's "edit" variant (§1): the appointment management of
 * /manage/appointments for the block's practitioner, inside the page. Shown instead of the standard
 * variant when edit mode is on — the signed-in editor's session authorises the screen's loader and
 * action, which it calls through fetchers (nothing of it is in the page's own data, so booker details
 * never reach a visitor's page). The block's component switches it in on the editor's canvas
 * (EditModeContext) when the block's variant is "edit", loading it as a chunk of its own.
 */
export function BookAppointmentEditVariant({ block, data }: BlockProps) {
  const { language } = useSite();
  const practitionerId = blockPractitioner(block, data);
  return (
    <BlockSection heading={text(block.heading) || appointmentTexts[language].title} width="wide">
      {practitionerId ? <PractitionerSlotEditor practitionerId={practitionerId} /> : <p>{appointmentTexts[language].pickFirst}</p>}
    </BlockSection>
  );
}

/**
 * The block's practitioner: a `practitioner` field when the block has one (an id or a reference
 * list), else the one practitioner the page shows (a profile page).
 */
export function blockPractitioner(block: BlockProps["block"], data: BlockProps["data"]): string | undefined {
  const field = block.practitioner;
  const named = Array.isArray(field) ? field[0] : field;
  if (typeof named === "string" && named) return named;
  return data.practitioners.length === 1 ? data.practitioners[0]!.id : undefined;
}

/** The slot manager for one practitioner, its data loaded from the admin screen's loader. */
export function PractitionerSlotEditor({ practitionerId }: { practitionerId: string }) {
  const { language } = useSite();
  const loader = useFetcher<ScreenData>({ key: `appointments-view-${practitionerId}` });
  const { load, state } = loader;
  const loaded = loader.data !== undefined;
  useEffect(() => {
    if (!loaded && state === "idle") void load(`${APPOINTMENTS_PATH}?${new URLSearchParams({ practitioner: practitionerId })}`);
  }, [load, loaded, state, practitionerId]);
  const view = loader.data?.view;
  if (!view) {
    return (
      <p role="status" aria-live="polite">
        {loader.data?.notice ?? (language === "de" ? "Termine werden geladen …" : "Loading slots …")}
      </p>
    );
  }
  return <SlotManager view={view} GetForm={loader.Form} />;
}
