import { AppointmentList } from "~/practitioners/components";
import { useSite } from "~/site/site-context";
import { BlockSection, text } from "../block-section";
import type { BlockDefinition, BlockProps } from "../types";

function BookAppointmentBlock({ block, data }: BlockProps) {
  const { siteVariant, t } = useSite();
  const byId = new Map(data.practitioners.map((p) => [p.id, p]));
  const free = data.appointments.filter((a) => !a.booked).slice(0, 12);
  return (
    <BlockSection heading={text(block.heading) || t.bookAppointment} width="wide">
      {siteVariant === "booking" ? <AppointmentList slots={free} practitioners={byId} /> : <p>{t.noAppointments}</p>}
    </BlockSection>
  );
}

export const definition: BlockDefinition = {
  name: "block-book-appointment",
  palette: { label: { de: "Termin buchen", en: "Book an appointment" }, icon: "calendar", group: "practitioners" },
  Component: BookAppointmentBlock,
};
