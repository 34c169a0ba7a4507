/**
 * A visitor's page asks for its scripts after its first paint, not alongside its stylesheets.
 *
 * The server's HTML is the whole page (links and forms work without JavaScript); the scripts only
 * hydrate it. Asked for at once, as React Router's `<Scripts>` does (a `modulepreload` link per
 * chunk, a module script importing the route modules), ~120 KB of script share a slow line with
 * the stylesheets, the fonts and the hero image, and the first paint waits for all of them
 * together. So on public pages the preload links come out of the HTML and the module script first
 * waits for a frame to be painted, then adds the same preload links and imports the same modules;
 * everything after that is React Router's own code, unchanged.
 *
 * A document that is hidden (a tab opened in the background) gets its scripts at once: it paints
 * nothing. When React Router's output is not what this expects, the page is left as it is
 * (`deferred: false`, which the tests check, so an upgrade that changes it cannot slip through).
 */
export function scriptsAfterPaint(html: string, marker: string): { html: string; deferred: boolean } {
  const nonce = ` nonce="${marker}"`;
  const module = [...html.matchAll(/<script\b[^>]*>/g)].find((m) => m[0].includes(' type="module"') && m[0].includes(nonce));
  if (!module) return { html, deferred: false };
  const start = module.index + module[0].length;
  const end = html.indexOf("</script>", start);
  if (end < 0) return { html, deferred: false };
  const code = html.slice(start, end);
  const imports = [...code.matchAll(/^import \* as (route\d+) from ("\/[^"\\]+");$/gm)];
  if (!imports.length || !/\nimport\("\/[^"]+"\);$/.test(code)) return { html, deferred: false };

  const preloads: string[] = [];
  const withoutPreloads = (text: string) =>
    text.replace(/<link rel="modulepreload" href="(\/[^"]+)"[^>]*>/g, (_tag, href: string) => {
      preloads.push(href);
      return "";
    });
  const before = withoutPreloads(html.slice(0, module.index));
  const after = withoutPreloads(html.slice(end));
  const names = imports.map((m) => m[1]).join(", ");
  const urls = imports.map((m) => `import(${m[2]})`).join(", ");
  const gate =
    `await new Promise((go) => (document.visibilityState === "hidden" ? go() : requestAnimationFrame(() => setTimeout(go))));\n` +
    `for (const href of ${JSON.stringify([...new Set(preloads)])}) document.head.append(Object.assign(document.createElement("link"), { rel: "modulepreload", href }));\n` +
    `const [${names}] = await Promise.all([${urls}]);`;
  let rest = code;
  for (const m of imports) rest = rest.replace(m[0], "");
  return { html: `${before}${module[0]}${gate}${rest}${after}`, deferred: true };
}
