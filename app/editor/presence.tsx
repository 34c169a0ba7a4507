import { useEffect, useState } from "react";
import type { Language } from "~/i18n/languages";
import { editorTexts } from "./texts";
import { http } from "~/lib/http";
import { whenIdle } from "./idle";

/** The others on the page, as the presence endpoint names them. */
export interface PresentEditor {
  name: string;
}

/** Well within the server's 45 s window: one lost heartbeat does not make someone vanish. */
const HEARTBEAT_MS = 20_000;

const presenceUrl = (pageId: string) => `/api/editor/pages/${encodeURIComponent(pageId)}/presence`;

/** Only what looks like the endpoint's answer: a list of names, nothing else shown. */
function othersOf(body: unknown): PresentEditor[] | null {
  const others = (body as { others?: unknown } | null)?.others;
  if (!Array.isArray(others)) return null;
  return others.filter((o): o is PresentEditor => typeof (o as PresentEditor | null)?.name === "string" && (o as PresentEditor).name !== "").map((o) => ({ name: o.name }));
}

/**
 * Says "I am editing this page" to the server every 20 s and whenever the window gets the focus
 * back, and answers the other people the server saw on the page recently. Leaving (closing the
 * tab, navigating away, the editor unmounting) tells the server at once, so the others stop seeing
 * this person right away instead of 45 s later. The app nodes keep no state: the database does.
 */
export function usePresence(pageId: string): PresentEditor[] {
  const [others, setOthers] = useState<PresentEditor[]>([]);
  useEffect(() => {
    const url = presenceUrl(pageId);
    let stopped = false;
    let inFlight = false;
    const beat = async () => {
      // A focus right after a timer tick: one request is enough.
      if (inFlight || stopped) return;
      inFlight = true;
      try {
        // A heartbeat: the next one is the retry.
        const res = await http(url, { method: "POST", json: {}, retry: false });
        const answer = othersOf(await res.json().catch(() => null));
        // A page deleted meanwhile or a session that ended: nobody to show (the editor says the rest).
        if (!stopped) setOthers(res.ok && answer ? answer : []);
      } catch {
        // Offline: what was known stays until the connection is back; the next beat corrects it.
      } finally {
        inFlight = false;
      }
    };
    const leave = () => {
      // sendBeacon survives the page going away; its body cannot be JSON everywhere, so the query says it.
      if (typeof navigator.sendBeacon === "function" && navigator.sendBeacon(`${url}?leaving=1`)) return;
      void http(url, { method: "DELETE", keepalive: true, retry: false }).catch(() => {});
    };
    const onFocus = () => void beat();
    const onVisible = () => {
      if (document.visibilityState === "visible") void beat();
    };
    // Back from the back/forward cache: pagehide said goodbye, so say hello again.
    const onPageShow = (e: PageTransitionEvent) => {
      if (e.persisted) void beat();
    };
    // The first hello once the editor is open and the browser idle (at most half a second later).
    const cancelFirst = whenIdle(() => void beat());
    const timer = setInterval(() => void beat(), HEARTBEAT_MS);
    window.addEventListener("focus", onFocus);
    document.addEventListener("visibilitychange", onVisible);
    window.addEventListener("pagehide", leave);
    window.addEventListener("pageshow", onPageShow);
    return () => {
      stopped = true;
      cancelFirst();
      clearInterval(timer);
      window.removeEventListener("focus", onFocus);
      document.removeEventListener("visibilitychange", onVisible);
      window.removeEventListener("pagehide", leave);
      window.removeEventListener("pageshow", onPageShow);
      leave();
    };
  }, [pageId]);
  return others;
}

/**
 * "Also on this page: Maria Muster. …" while someone else has the page open in edit mode. Saving
 * over their changes already asks first (the save conflict); this says so before it happens.
 * The live region is always there (empty when nobody else is), so screen readers announce a
 * newcomer: a region that appears together with its text is often not read out.
 */
export function PresenceNotice({ pageId, language }: { pageId: string; language: Language }) {
  const others = usePresence(pageId);
  const t = editorTexts[language];
  // Intl.ListFormat loads its language data on first use (about 10 ms): only once someone is there.
  const names = others.length ? new Intl.ListFormat(language, { style: "long", type: "conjunction" }).format(others.map((o) => o.name)) : "";
  return (
    <span role="status" data-editor-presence={others.length || undefined}>
      {others.length ? (
        <span className="inline-block rounded border border-[#8a6d00]/40 bg-[#fff4ce] px-2 py-1 text-sm text-[#4d3b00]">
          {t.presenceOthers(names)} {t.presenceHint(others.length)}
        </span>
      ) : null}
    </span>
  );
}
