import "maplibre-gl/dist/maplibre-gl.css";
import * as maplibregl from "maplibre-gl";
// MapLibre's worker, bundled by Vite as its own file (as the site's map does).
import workerUrl from "maplibre-gl/dist/maplibre-gl-worker.mjs?worker&url";
import { useEffect, useRef, useState } from "react";
import { http } from "~/lib/http";

/** A style with nothing to load: a plain background, so clicking works without any tile service. */
const BLANK_STYLE: maplibregl.StyleSpecification = {
  version: 8,
  sources: {},
  layers: [{ id: "background", type: "background", paint: { "background-color": "#dfe8ea" } }],
};

/** Germany's middle, for a map without a point yet. */
const CENTER: [number, number] = [10.45, 51.16];

export interface GeoMapProps {
  point: { latitude: number; longitude: number } | null;
  onPick(latitude: number, longitude: number): void;
  styleUrl?: string;
  label: string;
  words: { offline: string; failed: string };
}

/** Whether the style can be had within a few seconds; the map uses the blank style otherwise. */
async function reachableStyle(url: string | undefined): Promise<string | maplibregl.StyleSpecification> {
  if (!url) return BLANK_STYLE;
  try {
    // Once, within 4 s: the map does without (a blank style) rather than keep the editor waiting.
    const res = await http(url, { timeoutMs: 4000, retry: false, credentials: "omit" });
    if (!res.ok) return BLANK_STYLE;
    return (await res.json()) as maplibregl.StyleSpecification;
  } catch {
    return BLANK_STYLE;
  }
}

/**
 * The place control's map (MapLibre GL), loaded only by that control through a dynamic import, so
 * it never lands in the site's JavaScript. A click sets the point; a marker shows it. When the
 * style cannot be loaded (no internet), a blank map still takes clicks.
 */
export default function GeoMap({ point, onPick, styleUrl, label, words }: GeoMapProps) {
  const container = useRef<HTMLDivElement>(null);
  const map = useRef<maplibregl.Map | null>(null);
  const marker = useRef<maplibregl.Marker | null>(null);
  const pick = useRef(onPick);
  pick.current = onPick;
  const [problem, setProblem] = useState<string | null>(null);
  const [ready, setReady] = useState(false);

  useEffect(() => {
    let cancelled = false;
    let made: maplibregl.Map | undefined;
    void reachableStyle(styleUrl).then((style) => {
      if (cancelled || !container.current) return;
      if (style === BLANK_STYLE && styleUrl) setProblem(words.offline);
      maplibregl.setWorkerUrl(workerUrl);
      try {
        made = new maplibregl.Map({
          container: container.current,
          style,
          center: point ? [point.longitude, point.latitude] : CENTER,
          zoom: point ? 13 : 5,
          attributionControl: { compact: true },
        });
      } catch {
        setProblem(words.failed);
        return;
      }
      made.addControl(new maplibregl.NavigationControl({ showCompass: false }));
      // MapLibre names every canvas "Map" (a region): with two place fields, two equal landmarks.
      made.getCanvas().setAttribute("aria-label", label);
      // Tiles or glyphs that fail later leave the map clickable; say so once.
      made.on("error", () => setProblem((p) => p ?? words.offline));
      made.on("click", (e) => pick.current(Number(e.lngLat.lat.toFixed(6)), Number(e.lngLat.lng.toFixed(6))));
      map.current = made;
      setReady(true);
    });
    return () => {
      cancelled = true;
      made?.remove();
      map.current = null;
      marker.current = null;
    };
    // The map is made once; the point moves its marker (below).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [styleUrl]);

  useEffect(() => {
    const m = map.current;
    if (!m) return;
    if (!point) {
      marker.current?.remove();
      marker.current = null;
      return;
    }
    const at: [number, number] = [point.longitude, point.latitude];
    if (!marker.current) marker.current = new maplibregl.Marker({ color: "#0f5e63" }).setLngLat(at).addTo(m);
    else marker.current.setLngLat(at);
    if (!m.getBounds().contains(at)) m.jumpTo({ center: at, zoom: Math.max(m.getZoom(), 12) });
  }, [point?.latitude, point?.longitude, ready]); // eslint-disable-line react-hooks/exhaustive-deps

  // The box has the placeholder's size (geo.tsx), and a problem shows on the map, not below it:
  // nothing under the map moves when it arrives or when it has to do without its style.
  return (
    <div className="relative h-72 w-full overflow-hidden rounded border border-slate-300">
      <div className="absolute inset-0" role="application" aria-label={label} data-geo-map data-map-ready={ready ? "true" : undefined}>
        <div ref={container} style={{ position: "absolute", inset: 0 }} />
      </div>
      {problem ? (
        <p className="absolute inset-x-0 bottom-0 bg-white/90 px-2 py-1 text-sm text-slate-800" role="status" data-map-problem>
          {problem}
        </p>
      ) : null}
    </div>
  );
}
