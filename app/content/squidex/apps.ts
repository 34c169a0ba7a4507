import { randomUUID } from "node:crypto";
import { ContentError, notFound } from "../errors";
import { LANGUAGES, MASTER_LANGUAGE } from "../store";
import type { Principal } from "../policy";
import { isPlainObject } from "../validate";
import { empty, json, notImplemented, readJsonBody, type ApiAnswer, type ApiRequest, type SquidexHttpContext } from "./respond";

/**
 * Ping, info and the app itself, as Squidex serves them (PingController, AppsController,
 * AppLanguagesController). This service hosts exactly one app, so app management (creating apps,
 * clients, contributors, roles, rules, workflows, ...) is not offered: those endpoints answer 501
 * with a message rather than a 404 that would read as "no such app".
 */

/** `GET api/ping` (anonymous): 204 while the service is up. */
export const ping = (): ApiAnswer => empty(204);

/** `GET api/info` (anonymous): Squidex's ExposedValues, a string-to-string map. */
export const info = (): ApiAnswer => json({ name: "Praxisnetz embedded Squidex-compatible service", version: "1" });

/** App sub-resources Squidex has and this service does not offer (AppsController and its siblings). */
const MANAGEMENT_AREAS = new Set([
  "asset-scripts",
  "assets-scripts",
  "backups",
  "clients",
  "contributors",
  "history",
  "image",
  "jobs",
  "patterns",
  "plan",
  "plans",
  "roles",
  "rules",
  "search",
  "settings",
  "team",
  "translations",
  "usages",
  "workflows",
]);

const ENGLISH_NAMES: Record<string, string> = { de: "German", en: "English" };
const NATIVE_NAMES: Record<string, string> = { de: "Deutsch", en: "English" };

/** `GET api/languages`: the languages this service knows, which are the site's. */
export const allLanguages = (): ApiAnswer =>
  json([...LANGUAGES].sort().map((code) => ({ iso2Code: code, englishName: ENGLISH_NAMES[code] ?? code, nativeName: NATIVE_NAMES[code] ?? code })));

async function appDto(ctx: SquidexHttpContext, by: Principal) {
  const { store, appName } = ctx;
  // The app has no row of its own: its id is kept once as a setting, its times are its schemas'.
  const id = await store.ensureSetting("squidex-app-id", randomUUID());
  const schemas = await store.listSchemas();
  const times = schemas.flatMap((s) => [s.created, s.lastModified]).sort();
  const now = new Date().toISOString();
  const owner = by.kind === "client" || (by.kind === "user" && by.superuser);
  return {
    id,
    name: appName,
    label: appName,
    version: 0,
    created: times[0] ?? now,
    lastModified: times[times.length - 1] ?? now,
    permissions: owner ? [`squidex.apps.${appName}.*`] : [`squidex.apps.${appName}.contents.*`, `squidex.apps.${appName}.assets.*`],
    canAccessApi: true,
    canAccessContent: true,
    roleName: owner ? "Owner" : "Editor",
    roleProperties: {},
    _links: {
      ping: { href: `/api/ping/${appName}`, method: "GET" },
      schemas: { href: `/api/apps/${appName}/schemas`, method: "GET" },
      languages: { href: `/api/apps/${appName}/languages`, method: "GET" },
      assets: { href: `/api/apps/${appName}/assets`, method: "GET" },
    },
  };
}

/** `api/apps` without an app: the list (this one app) and app creation (only "already exists"). */
export async function appsRoot(request: ApiRequest, method: string, by: Principal, ctx: SquidexHttpContext): Promise<ApiAnswer> {
  if (method === "GET") return json([await appDto(ctx, by)]);
  if (method === "POST") {
    const body = await readJsonBody(request, ctx);
    if (!isPlainObject(body) || typeof body.name !== "string") throw new ContentError(400, "Validation error", ["name: Field is required."]);
    // Squidex refuses a taken name as a validation error (400), which its own test setup tolerates.
    if (body.name === ctx.appName) throw new ContentError(400, "Validation error", ["An app with the same name already exists."]);
    throw notImplemented(`Creating apps is not supported: this service hosts the one app "${ctx.appName}".`);
  }
  throw new ContentError(405, "Use GET or POST.");
}

/**
 * `api/apps/{app}` itself, its languages and its management areas; `rest` is the path after the app.
 * Returns undefined for what other modules answer (schemas, assets).
 */
export async function appResource(method: string, rest: string[], by: Principal, ctx: SquidexHttpContext): Promise<ApiAnswer | undefined> {
  const { appName } = ctx;
  const [area, ...more] = rest;
  if (area === undefined) {
    if (method === "GET") return json(await appDto(ctx, by));
    throw notImplemented(`Changing or deleting the app is not supported: this service hosts the one app "${appName}", configured by the site.`);
  }
  const lower = area.toLowerCase();
  if (lower === "languages") {
    if (method !== "GET") throw notImplemented(`Managing languages is not supported: the site's languages are fixed (${LANGUAGES.join(", ")}).`);
    if (more.length) throw notFound(`No Squidex endpoint for GET apps/${appName}/${rest.join("/")}.`);
    return json({
      // Master first, the rest by code.
      items: [MASTER_LANGUAGE, ...[...LANGUAGES].filter((l) => l !== MASTER_LANGUAGE).sort()].map((code) => ({
        iso2Code: code,
        englishName: ENGLISH_NAMES[code] ?? code,
        isMaster: code === MASTER_LANGUAGE,
        isOptional: false,
        fallback: code === MASTER_LANGUAGE ? [] : [MASTER_LANGUAGE],
        // Squidex links update/delete for those who may manage languages; nobody may here.
        _links: {},
      })),
      _links: { self: { href: `/api/apps/${appName}/languages`, method: "GET" } },
    });
  }
  if (MANAGEMENT_AREAS.has(lower)) throw notImplemented(`App management (${lower}) is not supported by this service: it hosts the one app "${appName}" with one API client.`);
  return undefined;
}
