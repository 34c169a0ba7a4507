import { ConsentedMap } from "~/maps/consented-map";
import { useSite } from "~/site/site-context";
import { BlockSection, text } from "../block-section";
import type { BlockDefinition, BlockProps } from "../types";

function MapBlock({ block }: BlockProps) {
  const { mapDefault } = useSite();
  const location = (block.location as { latitude: number; longitude: number } | undefined) ?? mapDefault;
  const zoom = typeof block.zoom === "number" ? block.zoom : 12;
  return (
    <BlockSection heading={text(block.heading)} width="medium">
      <ConsentedMap center={location} zoom={zoom} markers={[{ id: "location", position: location, label: text(block.heading) }]} />
    </BlockSection>
  );
}

export const definition: BlockDefinition = {
  name: "block-map",
  palette: { label: { de: "Karte", en: "Map" }, icon: "map", group: "content" },
  Component: MapBlock,
  live: true,
};
