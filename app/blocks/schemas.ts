import type { SchemaInput } from "~/content/types";
import { blockSchema as hero } from "./hero/schema";
import { blockSchema as richtext } from "./richtext/schema";
import { blockSchema as image } from "./image/schema";
import { blockSchema as columns } from "./columns/schema";
import { blockSchema as cta } from "./cta/schema";
import { blockSchema as accordion } from "./accordion/schema";
import { blockSchema as iconlist } from "./iconlist/schema";
import { blockSchema as map } from "./map/schema";
import { blockSchema as practitioner_single } from "./practitioner-single/schema";
import { blockSchema as practitioner_list } from "./practitioner-list/schema";
import { blockSchema as practitioner_smalllist } from "./practitioner-smalllist/schema";
import { blockSchema as practitioner_overview } from "./practitioner-overview/schema";
import { blockSchema as book_appointment } from "./book-appointment/schema";
import { blockSchema as practitioner_registration } from "./practitioner-registration/schema";

/** Every block's schema (its fields with defaults and tags), in palette order; the seed writes them. */
export const BLOCK_SCHEMAS: SchemaInput[] = [
  hero,
  richtext,
  image,
  columns,
  cta,
  accordion,
  iconlist,
  map,
  practitioner_single,
  practitioner_list,
  practitioner_smalllist,
  practitioner_overview,
  book_appointment,
  practitioner_registration,
];
