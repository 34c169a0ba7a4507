import type { Route } from "./+types/test-consent-service";
import { notFound } from "~/site/page.server";

/**
 * A stand-in for an external consent tool, for the browser tests only (404 unless TEST_ROUTES=true):
 * it shows a dialog of its own and answers through public/consent-bridge.js's event. Loaded from
 * another origin (localhost instead of 127.0.0.1), as a real tool would be.
 */
export function loader({ context, request }: Route.LoaderArgs) {
  if (!context.services.env.TEST_ROUTES) notFound(new URL(request.url).pathname);
  const script = `(() => {
  const me = document.currentScript;
  const show = () => {
    if (document.getElementById("fake-consent-tool")) return;
    const box = document.createElement("div");
    box.id = "fake-consent-tool";
    box.setAttribute("role", "dialog");
    box.setAttribute("aria-label", "Consent tool " + (me ? me.dataset.settingsId : ""));
    const answer = (statistic) => () => {
      box.remove();
      dispatchEvent(new CustomEvent("praxisnetz:external-consent", { detail: { functional: statistic, statistic, marketing: false, unclassified: false } }));
    };
    for (const [label, statistic] of [["Accept statistics", true], ["Deny", false]]) {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = label;
      button.onclick = answer(statistic);
      box.append(button);
    }
    document.body.append(box);
  };
  if (!document.cookie.includes("pn_consent=")) show();
  addEventListener("praxisnetz:consent-settings", show);
})();`;
  return new Response(script, { headers: { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "no-store", "Access-Control-Allow-Origin": "*", "Cross-Origin-Resource-Policy": "cross-origin" } });
}
