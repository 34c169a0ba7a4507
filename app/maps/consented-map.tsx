import { lazy, Suspense, useEffect, useState, type ComponentProps } from "react";
import { useSite } from "~/site/site-context";
import { MapConsentPlaceholder } from "./map-consent";

const MapView = lazy(() => import("./map-view"));

/** True once React runs in the browser. */
function useHydrated() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

const reserved = <div className="h-80 rounded-lg bg-black/5" />;

/**
 * A map where the page wants one: the consent placeholder until the visitor allows functional
 * cookies; then, in the browser only (the server never loads MapLibre), the interactive map in the
 * same reserved 20 rem, so nothing moves when it arrives.
 */
export function ConsentedMap(props: ComponentProps<typeof MapView>) {
  const { consent } = useSite();
  const hydrated = useHydrated();
  if (!consent.functional) return <MapConsentPlaceholder />;
  if (!hydrated) return reserved;
  return (
    <Suspense fallback={reserved}>
      <MapView {...props} />
    </Suspense>
  );
}
