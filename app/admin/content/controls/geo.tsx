import { lazy, Suspense, useEffect, useId, useState } from "react";
import type { CustomControlProps } from "~/forms/react";
import { useControlsData } from "./context";
import { parseValue, valueText, withAdvanced } from "./json";
import { controlInput, controlWords, smallButton } from "./words";
import { http } from "~/lib/http";

// MapLibre is big: it loads with this control only, never with the site.
const GeoMap = lazy(() => import("./geo-map"));

interface Place {
  label: string;
  latitude: number;
  longitude: number;
}

type Point = { latitude: number; longitude: number };

/** The point in a control's JSON text, or null for none (or an incomplete one). */
export function pointOf(value: string): Point | null {
  const v = parseValue<unknown>(value, null) as { latitude?: unknown; longitude?: unknown } | null;
  if (!v || typeof v !== "object") return null;
  const latitude = v.latitude;
  const longitude = v.longitude;
  return typeof latitude === "number" && typeof longitude === "number" && Number.isFinite(latitude) && Number.isFinite(longitude) ? { latitude, longitude } : null;
}

const numberText = (n: unknown) => (typeof n === "number" && Number.isFinite(n) ? String(n) : "");

/**
 * A place (a practice's location): latitude and longitude as labelled number inputs, an address
 * search (the server asks the geocoder, or our directory when it cannot answer, and says which), and
 * a map to click on. The map loads in the admin only, when this control shows.
 */
export const GeoControl = withAdvanced(GeoPicker, true);

/**
 * The map's box (the size of GeoMap's) while its code loads, from the server's page on: nothing
 * below it moves when the map arrives. Once a control under it (the superuser's JSON switch) moved
 * between a click's aim and the click.
 */
function MapPlaceholder({ text }: { text: string }) {
  return (
    <div className="flex h-72 w-full items-center justify-center rounded border border-slate-300 text-sm text-slate-700" data-geo-map-placeholder>
      {text}
    </div>
  );
}

function GeoPicker({ id, value, onChange, onBlur, describedBy, invalid, language, label }: CustomControlProps) {
  const w = controlWords[language];
  const { mapStyleUrl } = useControlsData();
  const base = useId();
  const parsed = parseValue<Record<string, unknown> | null>(value, null);
  const [lat, setLat] = useState(numberText(parsed?.latitude));
  const [lon, setLon] = useState(numberText(parsed?.longitude));
  const [q, setQ] = useState("");
  const [answer, setAnswer] = useState<{ source: "geocoder" | "directory"; places: Place[] } | null>(null);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  const [said, setSaid] = useState("");
  const [mapShown, setMapShown] = useState(false);
  useEffect(() => setMapShown(true), []);

  // A value set elsewhere (the JSON switch, a reset) shows in the inputs.
  useEffect(() => {
    const v = parseValue<Record<string, unknown> | null>(value, null);
    const nextLat = numberText(v?.latitude);
    const nextLon = numberText(v?.longitude);
    if (Number(nextLat) !== Number(lat) || nextLat === "" !== (lat.trim() === "")) setLat(nextLat);
    if (Number(nextLon) !== Number(lon) || nextLon === "" !== (lon.trim() === "")) setLon(nextLon);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [value]);

  const write = (latText: string, lonText: string) => {
    if (!latText.trim() && !lonText.trim()) return onChange("");
    const point: Record<string, number> = {};
    if (latText.trim() !== "" && Number.isFinite(Number(latText))) point.latitude = Number(latText);
    if (lonText.trim() !== "" && Number.isFinite(Number(lonText))) point.longitude = Number(lonText);
    onChange(JSON.stringify(point));
  };
  const setPoint = (latitude: number, longitude: number) => {
    setLat(String(latitude));
    setLon(String(longitude));
    onChange(valueText({ latitude, longitude }));
    setSaid(w.geoSet(latitude, longitude));
  };

  const find = async () => {
    const text = q.trim();
    if (text.length < 2) return;
    setBusy(true);
    setFailed(null);
    setAnswer(null);
    try {
      const res = await http("/api/editor/geocode", { query: { q: text } });
      const body = (await res.json().catch(() => ({}))) as { source?: "geocoder" | "directory"; places?: Place[]; message?: string };
      if (!res.ok || !Array.isArray(body.places)) setFailed(body.message ?? w.pickFailed);
      else setAnswer({ source: body.source ?? "directory", places: body.places });
    } catch {
      setFailed(w.pickFailed);
    } finally {
      setBusy(false);
    }
  };

  const point = pointOf(value);
  const searchId = `${base}-address`;
  return (
    <div className="space-y-3" data-geo-control>
      <div className="grid gap-3 sm:grid-cols-2">
        <div>
          <label htmlFor={id} className="block text-sm font-medium">
            {w.geoLatitude}
          </label>
          <input
            id={id}
            type="number"
            step="any"
            min={-90}
            max={90}
            inputMode="decimal"
            className={controlInput}
            value={lat}
            onChange={(e) => {
              setLat(e.target.value);
              write(e.target.value, lon);
            }}
            onBlur={onBlur}
            aria-describedby={describedBy}
            aria-invalid={invalid}
            data-latitude
          />
        </div>
        <div>
          <label htmlFor={`${base}-lon`} className="block text-sm font-medium">
            {w.geoLongitude}
          </label>
          <input
            id={`${base}-lon`}
            type="number"
            step="any"
            min={-180}
            max={180}
            inputMode="decimal"
            className={controlInput}
            value={lon}
            onChange={(e) => {
              setLon(e.target.value);
              write(lat, e.target.value);
            }}
            onBlur={onBlur}
            aria-describedby={describedBy}
            aria-invalid={invalid}
            data-longitude
          />
        </div>
      </div>
      <div className="flex flex-wrap items-end gap-2">
        <div className="grow">
          <label htmlFor={searchId} className="block text-sm font-medium">
            {w.geoAddress}
          </label>
          <input
            id={searchId}
            type="search"
            className={controlInput}
            value={q}
            maxLength={200}
            onChange={(e) => setQ(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter") {
                e.preventDefault();
                void find();
              }
            }}
            data-address-search
          />
        </div>
        <button type="button" className={smallButton} disabled={busy || q.trim().length < 2} onClick={() => void find()}>
          {w.geoAddressButton}
        </button>
        {point ? (
          <button
            type="button"
            className={smallButton}
            onClick={() => {
              setLat("");
              setLon("");
              onChange("");
            }}
          >
            {w.geoClear}
          </button>
        ) : null}
      </div>
      <p role="status" aria-live="polite" className="text-sm text-slate-800" data-geo-status>
        {busy ? w.pickSearching : answer ? `${answer.source === "geocoder" ? w.geoFromGeocoder : w.geoFromDirectory} ${answer.places.length ? w.pickCount(answer.places.length) : w.geoNoPlaces}` : said}
      </p>
      {failed ? (
        <p role="alert" className="text-sm text-red-800">
          {failed}
        </p>
      ) : null}
      {answer?.places.length ? (
        <ul className="space-y-1" data-places data-source={answer.source}>
          {answer.places.map((p) => (
            <li key={`${p.label}|${p.latitude}|${p.longitude}`}>
              <button
                type="button"
                className={`${smallButton} text-left`}
                onClick={() => {
                  setPoint(p.latitude, p.longitude);
                  setAnswer(null);
                }}
              >
                {w.geoUse(p.label)}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <p className="text-sm text-slate-700">{w.geoMapHint}</p>
      {mapShown ? (
        <Suspense fallback={<MapPlaceholder text={w.geoMapLoading} />}>
          <GeoMap point={point} onPick={setPoint} styleUrl={mapStyleUrl} label={`${label}: ${w.geoMap}`} words={{ offline: w.geoMapOffline, failed: w.geoMapFailed }} />
        </Suspense>
      ) : (
        <MapPlaceholder text={w.geoMapLoading} />
      )}
    </div>
  );
}
