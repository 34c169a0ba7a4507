// Praxisnetz and an external consent tool (CONSENT_SERVICE_URL with CONSENT_SERVICE_ID), loaded
// only when one is configured, in place of the site's own banner.
//
// The tool (or a few lines of glue for it) tells the page the visitor's choice:
//   dispatchEvent(new CustomEvent("praxisnetz:external-consent", {
//     detail: { functional: true, statistic: false, marketing: false, unclassified: false },
//   }));
// The site keeps that choice in its own cookie, as its banner does: a form post to /api/consent,
// which reloads the page, so the server loads the scripts of the allowed categories and admits
// their origins (and takes a proof-of-consent record). A choice equal to the stored one changes
// nothing. The footer's "cookie settings" link (#consent) sends `praxisnetz:consent-settings`
// for the tool to open its dialog.
(() => {
  const CATEGORIES = ["functional", "statistic", "marketing", "unclassified"];
  const stored = () => {
    const cookie = document.cookie.split(/;\s*/).find((c) => c.startsWith("pn_consent="));
    if (!cookie) return null;
    try {
      return decodeURIComponent(cookie.slice("pn_consent=".length)).split(",").filter((c) => CATEGORIES.includes(c)).sort().join(",");
    } catch {
      return null;
    }
  };
  addEventListener("praxisnetz:external-consent", (event) => {
    const choice = event.detail && typeof event.detail === "object" ? event.detail : {};
    const granted = CATEGORIES.filter((c) => choice[c] === true);
    if (stored() === granted.join(",")) return;
    const form = document.createElement("form");
    form.method = "post";
    form.action = "/api/consent";
    form.hidden = true;
    const field = (name, value) => form.append(Object.assign(document.createElement("input"), { type: "hidden", name, value }));
    field("intent", "save");
    field("redirectTo", location.pathname + location.search);
    field("language", document.documentElement.lang);
    for (const category of granted) field("category", category);
    document.body.append(form);
    form.submit();
  });
  addEventListener("click", (event) => {
    const link = event.target instanceof Element ? event.target.closest('a[href="#consent"]') : null;
    if (!link) return;
    event.preventDefault();
    dispatchEvent(new CustomEvent("praxisnetz:consent-settings"));
  });
})();
