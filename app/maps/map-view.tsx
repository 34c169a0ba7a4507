import "maplibre-gl/dist/maplibre-gl.css";
import * as maplibregl from "maplibre-gl";
// MapLibre's worker, bundled by Vite as its own file; without this it is looked for beside the library.
import workerUrl from "maplibre-gl/dist/maplibre-gl-worker.mjs?worker&url";
import { useEffect, useMemo, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { useSite } from "~/site/site-context";
import { http } from "~/lib/http";

export interface MapMarker {
  id: string;
  position: { latitude: number; longitude: number };
  label: string;
  href?: string;
}

/** Where a map asks for its markers: the area shown and the zoom become the query string. */
export interface ClusterSource {
  /** The endpoint with the directory's own query (q, language, country, lang), without the area. */
  url: string;
}

/** One GeoJSON feature of the marker endpoint (api.practitioners-map.ts). */
interface ClusterFeature {
  geometry: { coordinates: [number, number] };
  properties: { count: number; name?: string; city?: string; href?: string };
}

/**
 * The interactive map (MapLibre GL). Loaded as its own chunk, only in the browser and only after
 * consent. Markers come either as a short list (a profile, a map block) or from `clusters`: asked
 * for the visible area after each move, one marker per grid square, so the browser's work does not
 * grow with the number of practitioners. If the tile service fails, the map says so and everything
 * around it keeps working.
 */
export default function MapView({ center, zoom, markers: given = [], clusters }: { center: { latitude: number; longitude: number }; zoom: number; markers?: MapMarker[]; clusters?: ClusterSource }) {
  const container = useRef<HTMLDivElement>(null);
  const { mapStyleUrl, t } = useSite();
  const [failed, setFailed] = useState(false);
  const navigate = useNavigate();
  const clusterLabel = t.mapCluster;
  // Callers pass a new array on every render; the map is made anew only when the markers change.
  const markerKey = JSON.stringify(given);
  const markers = useMemo(() => given, [markerKey]); // eslint-disable-line react-hooks/exhaustive-deps

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
    const dot = (label: string, href?: string) => {
      const el = document.createElement("button");
      el.type = "button";
      el.className = "size-4 rounded-full border-2 border-white bg-[var(--color-accent,#e9785d)] shadow";
      el.setAttribute("aria-label", label);
      if (href) el.addEventListener("click", () => navigate(href));
      return el;
    };
    const bounds = new maplibregl.LngLatBounds();
    for (const m of markers) {
      new maplibregl.Marker({ element: dot(m.label, m.href) }).setLngLat([m.position.longitude, m.position.latitude]).addTo(map);
      bounds.extend([m.position.longitude, m.position.latitude]);
    }
    if (markers.length > 1) map.fitBounds(bounds, { padding: 40, maxZoom: 12, duration: 0 });

    let shown: maplibregl.Marker[] = [];
    let asking: AbortController | undefined;
    const load = async () => {
      if (!clusters) return;
      asking?.abort();
      const mine = (asking = new AbortController());
      const b = map.getBounds();
      const area = new URLSearchParams({
        zoom: String(Math.max(0, Math.min(20, Math.floor(map.getZoom())))),
        west: String(Math.max(-180, b.getWest())),
        south: String(Math.max(-90, b.getSouth())),
        east: String(Math.min(180, b.getEast())),
        north: String(Math.min(90, b.getNorth())),
      });
      const url = `${clusters.url}${clusters.url.includes("?") ? "&" : "?"}${area}`;
      try {
        const response = await http(url, { signal: mine.signal });
        if (!response.ok) return;
        const { features } = (await response.json()) as { features: ClusterFeature[] };
        if (mine.signal.aborted) return;
        for (const m of shown) m.remove();
        shown = features.map((f) => {
          const [lng, lat] = f.geometry.coordinates;
          const { count, name, city, href } = f.properties;
          let el: HTMLElement;
          if (count > 1) {
            el = document.createElement("button");
            el.setAttribute("type", "button");
            el.className = "grid size-9 place-items-center rounded-full border-2 border-white bg-[var(--color-main,#0f5e63)] text-xs font-bold text-white shadow";
            el.textContent = count > 999 ? `${Math.round(count / 100) / 10}k` : String(count);
            el.setAttribute("aria-label", clusterLabel(count));
            el.dataset.mapCluster = String(count);
            el.addEventListener("click", () => map.easeTo({ center: [lng, lat], zoom: Math.min(20, map.getZoom() + 2) }));
          } else el = dot(name ? `${name}${city ? `, ${city}` : ""}` : clusterLabel(1), href);
          return new maplibregl.Marker({ element: el }).setLngLat([lng, lat]).addTo(map);
        });
      } catch {
        // Aborted by a newer move, or offline: the markers shown stay.
      }
    };
    if (clusters) {
      map.on("moveend", load);
      void load();
    }
    return () => {
      asking?.abort();
      map.remove();
    };
  }, [center.latitude, center.longitude, zoom, markers, clusters?.url, mapStyleUrl, navigate, clusterLabel]);

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
