/** Loaded when a form is sent offline (precached by the service worker, so it is there offline). */
const TEXTS = {
  de: "Sie sind offline. Ihre Eingaben bleiben erhalten – bitte senden Sie das Formular erneut, sobald Sie wieder verbunden sind.",
  en: "You are offline. Your input is kept – please send the form again once you are connected.",
};

/** Tells the visitor, at the form, that it was not sent; the form keeps its input. */
export function showOfflineNotice(form: HTMLFormElement): void {
  if (form.querySelector("[data-offline-notice]")) return;
  const notice = document.createElement("p");
  notice.setAttribute("role", "alert");
  notice.setAttribute("data-offline-notice", "");
  notice.className = "mt-3 rounded border border-amber-700 bg-amber-50 p-3 text-sm text-amber-950";
  notice.textContent = TEXTS[document.documentElement.lang === "en" ? "en" : "de"];
  form.append(notice);
}
