import "maplibre-gl/dist/maplibre-gl.css";
import * as maplibregl from "maplibre-gl";
// MapLibre's worker, bundled by Vite as its own file; without this it is looked for beside the library.
import workerUrl from "maplibre-gl/dist/maplibre-gl-worker.mjs?worker&url";
import { useEffect, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { useSite } from "~/site/site-context";

export interface MapMarker {
  id: string;
  position: { latitude: number; longitude: number };
  label: string;
  href?: string;
}

/**
 * The interactive map (MapLibre GL). Loaded as its own chunk, only in the browser and only after
 * consent. If the tile service fails, the map says so and everything around it keeps working.
 */
export default function MapView({ center, zoom, markers }: { center: { latitude: number; longitude: number }; zoom: number; markers: MapMarker[] }) {
  const container = useRef<HTMLDivElement>(null);
  const { mapStyleUrl, t } = useSite();
  const [failed, setFailed] = useState(false);
  const navigate = useNavigate();

  useEffect(() => {
    if (!container.current) return;
    maplibregl.setWorkerUrl(workerUrl);
    let map: maplibregl.Map;
    try {
      map = new maplibregl.Map({ container: container.current, style: mapStyleUrl, center: [center.longitude, center.latitude], zoom, attributionControl: { compact: true } });
    } catch {
      setFailed(true);
      return;
    }
    map.addControl(new maplibregl.NavigationControl({ showCompass: false }));
    map.on("error", () => setFailed(true));
    const bounds = new maplibregl.LngLatBounds();
    for (const m of markers) {
      const el = document.createElement("button");
      el.type = "button";
      el.className = "size-4 rounded-full border-2 border-white bg-[var(--color-accent,#e9785d)] shadow";
      el.setAttribute("aria-label", m.label);
      if (m.href) el.addEventListener("click", () => navigate(m.href!));
      new maplibregl.Marker({ element: el }).setLngLat([m.position.longitude, m.position.latitude]).addTo(map);
      bounds.extend([m.position.longitude, m.position.latitude]);
    }
    if (markers.length > 1) map.fitBounds(bounds, { padding: 40, maxZoom: 12, duration: 0 });
    return () => map.remove();
  }, [center.latitude, center.longitude, zoom, markers, mapStyleUrl, navigate]);

  return (
    <div className="relative h-80 overflow-hidden rounded-lg bg-black/5">
      {/* Inline position: MapLibre's stylesheet sets .maplibregl-map to position: relative. */}
      <div ref={container} style={{ position: "absolute", inset: 0 }} data-map />
      {failed ? (
        <p role="status" className="absolute inset-x-4 bottom-4 rounded bg-white/95 p-3 text-sm shadow">
          {t.mapFailed}
        </p>
      ) : null}
    </div>
  );
}
