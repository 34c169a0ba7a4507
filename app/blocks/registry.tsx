import type { ComponentType } from "react";
import { AccordionBlock, ColumnsBlock, CtaBlock, HeroBlock, IconListBlock, ImageBlock, MapBlock, RichTextBlock } from "./content-blocks";
import {
  BookAppointmentBlock,
  PractitionerListBlock,
  PractitionerOverviewBlock,
  PractitionerSingleBlock,
  PractitionerSmallListBlock,
  RegistrationBlock,
} from "./practitioner-blocks";
import type { Block, BlockProps, PageBlockData } from "./types";
import { own } from "~/lib/input";

/** The one block registry: block schema name → component. */
export const BLOCK_COMPONENTS: Record<string, ComponentType<BlockProps>> = {
  "block-hero": HeroBlock,
  "block-richtext": RichTextBlock,
  "block-image": ImageBlock,
  "block-columns": ColumnsBlock,
  "block-cta": CtaBlock,
  "block-accordion": AccordionBlock,
  "block-iconlist": IconListBlock,
  "block-map": MapBlock,
  "block-practitioner-single": PractitionerSingleBlock,
  "block-practitioner-list": PractitionerListBlock,
  "block-practitioner-smalllist": PractitionerSmallListBlock,
  "block-practitioner-overview": PractitionerOverviewBlock,
  "block-book-appointment": BookAppointmentBlock,
  "block-practitioner-registration": RegistrationBlock,
};

export function Blocks({ blocks, data }: { blocks: Block[]; data: PageBlockData }) {
  return (
    <>
      {blocks.map((block, index) => {
        const Component = own(BLOCK_COMPONENTS, block.schemaId);
        // Unknown names were logged ("The variant does not exist") and dropped by the loader.
        if (!Component) return null;
        return (
          <div key={block.id ?? index} data-block={block.schemaId}>
            <Component block={block} data={data} index={index} />
          </div>
        );
      })}
    </>
  );
}
