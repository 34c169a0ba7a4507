import { lazy, Suspense } from "react";
import { MapConsentPlaceholder } from "~/maps/map-consent";
import { useSite } from "~/site/site-context";
import { BlockSection, text } from "../block-section";
import type { BlockDefinition, BlockProps } from "../types";

const MapView = lazy(() => import("~/maps/map-view"));

function MapBlock({ block }: BlockProps) {
  const { consent, mapDefault } = useSite();
  const location = (block.location as { latitude: number; longitude: number } | undefined) ?? mapDefault;
  const zoom = typeof block.zoom === "number" ? block.zoom : 12;
  return (
    <BlockSection heading={text(block.heading)} width="medium">
      {consent.functional ? (
        <Suspense fallback={<div className="h-80 rounded-lg bg-black/5" />}>
          <MapView center={location} zoom={zoom} markers={[{ id: "location", position: location, label: text(block.heading) }]} />
        </Suspense>
      ) : (
        <MapConsentPlaceholder />
      )}
    </BlockSection>
  );
}

export const definition: BlockDefinition = {
  name: "block-map",
  palette: { label: { de: "Karte", en: "Map" }, icon: "map", group: "content" },
  Component: MapBlock,
};
