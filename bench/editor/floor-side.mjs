// The floor of `npm run bench:editor`: what the harness measures for a change that costs nothing.
// A static page with no framework: a text field whose input handler sets a block's text, and a
// button whose click handler removes a block, both synchronously. Timed exactly like the editors'
// keystroke and delete (the same harness, browser and real input), so the figures are the least
// any editor can score here: the wait for the next frame after the DOM changed, and the frame.
// An open of this page is the least an open can score (navigation, one small document).
import http from "node:http";

const PAGE = `<!doctype html><html lang="de"><head><meta charset="utf-8"><title>Floor</title></head><body>
<div data-floor-ready="1">
<label>Text <input id="text" value=""></label>
<button type="button" id="remove">Entfernen</button>
<div data-block-id="text-block"><span id="shown"></span></div>
<div data-block-id="removable">Block</div>
</div>
<script>
document.getElementById("text").addEventListener("input", (e) => { document.getElementById("shown").textContent = e.target.value; });
document.getElementById("remove").addEventListener("click", () => {
  const el = document.querySelector('[data-block-id="removable"]');
  if (el) el.remove();
  else { const b = document.createElement("div"); b.setAttribute("data-block-id", "removable"); b.textContent = "Block"; document.body.firstElementChild.append(b); }
});
</script></body></html>`;

/** Starts the floor page's server on `port`; returns its adapter (for the harness) and a stop function. */
export async function startFloor(port) {
  const server = http.createServer((req, res) =>
    req.url === "/start.txt" ? res.writeHead(200, { "content-type": "text/plain; charset=utf-8" }).end("start") : res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(PAGE),
  );
  await new Promise((resolve) => server.listen(port, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${port}`;
  return {
    adapter: {
      name: "floor",
      url: () => `${base}/`,
      startUrl: () => `${base}/start.txt`,
      layout: () => ({ lastId: "removable" }),
      harnessConfig: () => ({ frame: null, blockAttr: "data-block-id", lastId: "removable", readySelector: '[data-floor-ready="1"]', busySelector: null }),
      newContext: (browser) => browser.newContext({ viewport: { width: 1440, height: 900 } }),
    },
    stop: () => new Promise((resolve) => server.close(resolve)),
  };
}
