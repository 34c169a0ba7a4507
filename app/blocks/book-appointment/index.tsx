import { lazy, Suspense } from "react";
import { AppointmentList } from "~/practitioners/components";
import { useSite } from "~/site/site-context";
import { BlockSection, text } from "../block-section";
import { useEditMode } from "../edit-mode";
import type { BlockDefinition, BlockProps } from "../types";

/** The edit variant manages slots with the admin's screen: its own chunk, loaded in edit mode only. */
const EditVariant = lazy(() => import("./edit-variant").then((m) => ({ default: m.BookAppointmentEditVariant })));

function BookAppointmentBlock(props: BookAppointmentProps) {
  const { block, data } = props;
  const { siteVariant, t } = useSite();
  const editing = useEditMode();
  if (editing && block.variant === "edit") {
    return (
      <Suspense fallback={<BlockSection heading={text(block.heading) || t.bookAppointment} width="wide">{null}</BlockSection>}>
        <EditVariant {...props} />
      </Suspense>
    );
  }
  const byId = new Map(data.practitioners.map((p) => [p.id, p]));
  const free = data.appointments.filter((a) => !a.booked).slice(0, 12);
  return (
    <BlockSection heading={text(block.heading) || t.bookAppointment} width="wide">
      {siteVariant === "booking" ? <AppointmentList slots={free} practitioners={byId} /> : <p>{t.noAppointments}</p>}
    </BlockSection>
  );
}

type BookAppointmentProps = BlockProps;

export const definition: BlockDefinition = {
  name: "block-book-appointment",
  palette: { label: { de: "Termin buchen", en: "Book an appointment" }, icon: "calendar", group: "practitioners" },
  Component: BookAppointmentBlock,
  live: true,
};
