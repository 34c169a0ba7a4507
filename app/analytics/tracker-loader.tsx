import { useEffect, useRef } from "react";
import { useLocation } from "react-router";
import { useSite } from "~/site/site-context";
import type { Tracker, TrackerConfig } from "./tracker";

/**
 * Counts page views (on load and on each client-side navigation) once the visitor allowed
 * statistics. The tracker is a chunk of its own, fetched only then: without consent the page loads
 * and sends nothing.
 */
export function AnalyticsTracker({ config }: { config: TrackerConfig }) {
  const { consent } = useSite();
  const { pathname } = useLocation();
  const tracker = useRef<Promise<Tracker | null> | null>(null);
  useEffect(() => {
    if (!consent.statistic) return;
    tracker.current ??= import("./tracker").then((m) => m.startTracker(config));
    void tracker.current.then((t) => t?.pageview());
  }, [consent.statistic, pathname, config]);
  useEffect(() => () => void tracker.current?.then((t) => t?.stop()), []);
  return null;
}
