import { BookingStore } from "~/booking/bookings";
import { buildAppointmentSeed } from "./seed/appointments";
import { demoAssets } from "./seed/assets";
import { buildDemoContent } from "./seed/content";
import { demoSchemas } from "./seed/schemas";
import type { ContentStore } from "./store";

/**
 * Fills a new, empty store with the demo site. A store that already has schemas is never touched,
 * so restarting (or a second app node) cannot overwrite what editors changed.
 */
export async function seedDemoContent(store: ContentStore, now = new Date()): Promise<{ schemas: number; items: number; assets: number } | null> {
  if ((await store.listSchemas()).length > 0) return null;
  const claim = await store.ensureSetting("demo-seed", `${process.pid}:${now.toISOString()}`);
  if (claim !== `${process.pid}:${now.toISOString()}`) return null;
  const components = demoSchemas.filter((s) => s.type === "Component");
  const rest = demoSchemas.filter((s) => s.type !== "Component");
  for (const schema of [...components, ...rest]) await store.upsertSchema(schema);
  for (const asset of demoAssets) {
    await store.assets.upload({ id: asset.id, fileName: asset.fileName, mimeType: asset.mimeType, body: Buffer.from(asset.body, asset.encoding ?? "utf8") });
  }
  const items = buildDemoContent(now);
  for (const item of items) {
    await store.create(item.schema, item.data, { id: item.id, publish: item.status === "Published" });
  }
  const bookings = new BookingStore(store.db);
  for (const { appointmentId, ...booker } of buildAppointmentSeed(now).bookings) await bookings.put(appointmentId, booker, now);
  return { schemas: demoSchemas.length, items: items.length, assets: demoAssets.length };
}
