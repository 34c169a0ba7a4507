import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readBuildInfo } from "./build-info.server";
import { parseIconName, themeColors, webManifest } from "./web-manifest";

describe("web manifest", () => {
  it("opens each language at its home", () => {
    const de = webManifest({ language: "de", siteName: "Praxisnetz Gesundheit", description: "d", themeColor: "#123456", backgroundColor: "#fff" });
    expect(de).toMatchObject({ lang: "de", start_url: "/", scope: "/", display: "standalone", theme_color: "#123456", short_name: "Praxisnetz G" });
    expect(webManifest({ language: "en", siteName: "P", description: "d", themeColor: "#000", backgroundColor: "#fff" }).start_url).toBe("/en");
  });

  it("reads the default theme's colours from the stylesheet's :root, with fallbacks", () => {
    expect(themeColors("@layer a;\n:root { --color-main: #AA0011; --color-main-light: #fff; --color-white: #fafafa }\n.theme-x { --color-main: #000 }")).toEqual({ main: "#AA0011", white: "#fafafa" });
    expect(themeColors("")).toEqual({ main: "#0f5e63", white: "#ffffff" });
  });

  it("knows only the icons it offers", () => {
    expect(parseIconName("icon-192.png")).toEqual({ size: 192, maskable: false });
    expect(parseIconName("maskable-512.png")).toEqual({ size: 512, maskable: true });
    for (const bad of ["icon-9999.png", "maskable-192.png", "icon-192.svg", "../icon-192.png", ""]) expect(parseIconName(bad), bad).toBeNull();
  });
});

describe("build info", () => {
  it("takes React Router's manifest version as the id and the shell's chunks with their imports and CSS", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pwa-build-"));
    fs.mkdirSync(path.join(dir, ".vite"));
    fs.mkdirSync(path.join(dir, "assets"));
    fs.writeFileSync(path.join(dir, "assets", "manifest-1a2b3c4d.js"), "");
    fs.writeFileSync(
      path.join(dir, ".vite", "manifest.json"),
      JSON.stringify({
        "node_modules/@react-router/dev/dist/config/defaults/entry.client.tsx": { file: "assets/entry.client-A.js", isEntry: true, imports: ["_shared"] },
        _shared: { file: "assets/shared-B.js" },
        "app/root.tsx?__react-router-build-client-route": { file: "assets/root-C.js", isEntry: true, css: ["assets/app-D.css"], imports: ["_shared"] },
        "app/routes/manage/pages.tsx?__react-router-build-client-route": { file: "assets/pages-E.js", isEntry: true },
      }),
    );
    expect(readBuildInfo(dir)).toEqual({ id: "1a2b3c4d", shell: ["/assets/app-D.css", "/assets/entry.client-A.js", "/assets/manifest-1a2b3c4d.js", "/assets/root-C.js", "/assets/shared-B.js"] });
    expect(readBuildInfo(path.join(dir, "missing"))).toBeNull();
  });
});
