import { randomBytes } from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requirementOf, strongest, type Requirement } from "~/auth/access";
import routeConfig from "~/routes";
import { createUser, DEMO_ADMIN, postForm, signIn } from "../support/auth";
import { squidexToken, startServer, type RunningServer } from "../support/server";

/**
 * The authorization matrix, over real HTTP against the production build. The routes come from
 * app/routes.ts itself: every route must have a sample URL and an expectation below, or this file
 * fails, so a new route cannot be added without deciding who may reach it. What each /manage route
 * needs (editor or superuser) is read from its module's `handle` (and its parents'), as the gate does.
 *
 * Roles: anonymous, editor (invited through the superuser's flow), superuser (the demo admin).
 */

// ---- the route table ------------------------------------------------------------------------------

interface RouteConf {
  id?: string;
  path?: string;
  index?: boolean;
  file: string;
  children?: RouteConf[];
}

interface FlatRoute {
  /** Full path pattern, e.g. /manage/pages/:pagename. */
  pattern: string;
  file: string;
  /** The route's files from the outermost layout to itself. */
  chain: string[];
}

function flatten(confs: RouteConf[], parentPath = "", parents: string[] = []): FlatRoute[] {
  const out: FlatRoute[] = [];
  for (const conf of confs) {
    const full = conf.path ? `${parentPath}/${conf.path}`.replace(/\/+/g, "/") : parentPath;
    const chain = [...parents, conf.file];
    if (conf.children?.length) out.push(...flatten(conf.children, full, chain));
    else out.push({ pattern: full || "/", file: conf.file, chain });
  }
  return out;
}

const ROUTES = flatten(routeConfig as unknown as RouteConf[]);
const isManage = (r: FlatRoute) => r.pattern === "/manage" || (r.pattern.startsWith("/manage/") && r.pattern !== "/manage/flushcache");
/** The editor's JSON endpoints: outside /manage, behind the same session (anonymous: 401). */
const isGuardedApi = (r: FlatRoute) => r.pattern.startsWith("/api/editor/");

// ---- samples and expectations ---------------------------------------------------------------------

/** What a test run knows after setting up: ids to fill into samples. */
interface Ctx {
  itemId: string;
  /** The id of the page whose German slug is "home" (/manage/pages/home redirects to it). */
  homePageId: string;
  appointmentId: string;
  assetId: string;
  draftPageSlug: string;
  draftPractitionerId: string;
  draftPractitionerSlug: string;
}
type Sample = string | ((ctx: Ctx) => string);

/** Status a signed-in role that may see the route gets (documents and `.data` alike). */
interface ManageExpectation {
  sample: Sample;
  status: number;
}

/** Sample URLs of every /manage route. A route missing here fails the matrix. */
const MANAGE: Record<string, ManageExpectation> = {
  "/manage": { sample: "/manage", status: 200 },
  "/manage/pages": { sample: "/manage/pages", status: 200 },
  "/manage/pages/:pagename": { sample: (c) => `/manage/pages/${c.homePageId}`, status: 200 },
  "/manage/blocks": { sample: "/manage/blocks", status: 200 },
  "/manage/blocks/:blockname": { sample: "/manage/blocks/block-hero", status: 200 },
  "/manage/squidex/icons": { sample: "/manage/squidex/icons", status: 200 },
  "/manage/squidex/colors": { sample: "/manage/squidex/colors", status: 200 },
  "/manage/squidex/:pagename": { sample: (c) => `/manage/squidex/${c.homePageId}`, status: 200 },
  "/manage/colors": { sample: "/manage/colors", status: 200 },
  "/manage/text-styles": { sample: "/manage/text-styles", status: 200 },
  "/manage/content": { sample: "/manage/content", status: 200 },
  "/manage/content/:schema": { sample: "/manage/content/gm-content-practitioners", status: 200 },
  "/manage/content/:schema/:itemid": { sample: (c) => `/manage/content/gm-content-practitioners/${c.itemId}`, status: 200 },
  "/manage/registrations": { sample: "/manage/registrations", status: 200 },
  "/manage/appointments": { sample: "/manage/appointments", status: 200 },
  "/manage/outbox": { sample: "/manage/outbox", status: 200 },
  "/manage/squidex-assets": { sample: "/manage/squidex-assets", status: 200 },
  "/manage/tailwind": { sample: "/manage/tailwind", status: 200 },
  "/manage/plausible": { sample: "/manage/plausible", status: 200 },
  "/manage/users": { sample: "/manage/users", status: 200 },
  "/manage/audit": { sample: "/manage/audit", status: 200 },
  "/manage/account": { sample: "/manage/account", status: 200 },
  "/manage/*": { sample: "/manage/no-such-screen/at-all", status: 404 },
};

/**
 * Form posts to /manage actions that must succeed for a role allowed there. Routes with an action
 * not listed here get a probe post (`intent=authz-matrix-probe`), which an allowed role must get
 * an answer to that is neither a sign-in redirect nor 401/403 nor a server error.
 */
const MANAGE_POSTS: Record<string, (role: string) => { fields: Record<string, string>; status: number }> = {
  "/manage/users": (role) => ({ fields: { intent: "invite", email: `matrix-${role}-${randomBytes(4).toString("hex")}@example.com`, name: "Matrix" }, status: 201 }),
  "/manage/account": () => ({ fields: { intent: "language", language: "de" }, status: 200 }),
};

/**
 * Every route outside /manage: a sample request, hit anonymously in the draft scan. `status` is
 * what an anonymous visitor gets (a number, or "any" for routes whose answer depends on tokens or
 * test switches; never a 5xx either way).
 */
interface PublicExpectation {
  sample: Sample;
  method?: "GET" | "POST";
  body?: (ctx: Ctx) => unknown;
  status: number | "any";
  /** Also fetch the route's `.data` (pages rendered by React Router). */
  data?: boolean;
}

function siteRoutes(prefix: "" | "/en" | "/de"): Record<string, PublicExpectation> {
  return {
    [prefix || "/"]: { sample: prefix || "/", status: 200, data: true },
    [`${prefix}/practitioners`]: { sample: `${prefix}/practitioners`, status: 200, data: true },
    [`${prefix}/practitioners/register`]: { sample: `${prefix}/practitioners/register`, status: 200, data: true },
    [`${prefix}/practitioners/register/:practitionerid`]: { sample: (c) => `${prefix}/practitioners/register/${c.draftPractitionerId}`, status: "any", data: true },
    [`${prefix}/practitioners/:practitionername`]: { sample: (c) => `${prefix}/practitioners/${c.draftPractitionerSlug}`, status: 404, data: true },
    [`${prefix}/newsletter/:email`]: { sample: `${prefix}/newsletter/someone%40example.com`, status: "any", data: true },
    [`${prefix}/present/:email`]: { sample: `${prefix}/present/someone%40example.com`, status: "any", data: true },
    [`${prefix}/appointments/cancel`]: { sample: `${prefix}/appointments/cancel`, status: "any", data: true },
    [`${prefix}/appointments/book/:appointmentid`]: { sample: (c) => `${prefix}/appointments/book/${c.appointmentId}`, status: "any", data: true },
    [`${prefix}/login`]: { sample: `${prefix}/login`, status: 200, data: true },
    [`${prefix}/offline`]: { sample: `${prefix}/offline`, status: 200, data: true },
    [`${prefix}/*`]: { sample: (c) => `${prefix}/${c.draftPageSlug}`, status: 404, data: true },
  };
}

const draftBody = (url: string) => () => ({ url, language: "de", unpublished: true });

const PUBLIC: Record<string, PublicExpectation> = {
  "/api/rest": { sample: "/api/rest", method: "POST", body: draftBody(`gm-content-practitioners?$top=200`), status: 200 },
  "/api/graphql": {
    sample: "/api/graphql",
    method: "POST",
    body: (c) => ({
      graphquery: `{ queryGmContentPractitionersContents { id flatData { name } } queryCorePagesContents { id flatData { title seo } } findGmContentPractitionersContent(id: "${c.draftPractitionerId}") { id } }`,
      language: "de",
      unpublished: true,
    }),
    status: 200,
  },
  "/api/getcontentitem": { sample: "/api/getcontentitem", method: "POST", body: (c) => ({ url: "gm-content-practitioners", id: c.draftPractitionerId, language: "de", unpublished: true }), status: 404 },
  "/api/getassets": { sample: "/api/getassets", method: "POST", body: () => ({ language: "de" }), status: 200 },
  "/api/schemas": { sample: "/api/schemas", method: "POST", body: () => ({}), status: "any" },
  "/api/getThirdPartyScripts": { sample: "/api/getThirdPartyScripts", method: "POST", body: () => ({ language: "de" }), status: "any" },
  "/api/assets/:id/*": { sample: (c) => `/api/assets/${c.assetId}/file.png`, status: "any" },
  "/api/assets/:id": { sample: (c) => `/api/assets/${c.assetId}`, status: "any" },
  "/api/icons/:name": { sample: "/api/icons/no-such-icon", status: "any" },
  "/api/consent": { sample: "/api/consent", status: "any" },
  "/api/event": { sample: "/api/event", method: "POST", body: () => ({ n: "pageview", u: "http://127.0.0.1/ueber-uns", d: "127.0.0.1" }), status: "any" },
  // Only with a remote Squidex (SQUIDEX_URL) and a signed call: the embedded store has no mirror to pull into.
  "/api/content-webhook": { sample: "/api/content-webhook", method: "POST", body: () => ({ type: "ContentUpdated" }), status: 404 },
  "/api/practitioners/map": { sample: "/api/practitioners/map?zoom=3&west=-20&south=30&east=40&north=70", status: 200 },
  "/api/practitioners/register": { sample: "/api/practitioners/register", status: "any" },
  "/api/newsletter/subscribe": { sample: "/api/newsletter/subscribe", status: "any" },
  "/api/newsletter/unsubscribe": { sample: "/api/newsletter/unsubscribe", status: "any" },
  "/api/appointments/:id/book": { sample: (c) => `/api/appointments/${c.appointmentId}/book`, status: "any" },
  "/api/_auth/session": { sample: "/api/_auth/session", status: 200 },
  "/api/_auth/password": { sample: "/api/_auth/password", status: "any" },
  "/api/editor/pages/:id": { sample: (c) => `/api/editor/pages/${c.homePageId}`, method: "POST", body: () => ({ intent: "save", version: 0, blocks: { de: [], en: [] } }), status: 401 },
  "/api/editor/pages/:id/history": { sample: (c) => `/api/editor/pages/${c.homePageId}/history`, status: 401 },
  "/api/editor/pages/:id/presence": { sample: (c) => `/api/editor/pages/${c.homePageId}/presence`, method: "POST", body: () => ({}), status: 401 },
  "/api/editor/templates": { sample: "/api/editor/templates", status: 401 },
  "/api/editor/templates/:id": { sample: "/api/editor/templates/no-such-template", status: 401 },
  "/api/editor/block-data": { sample: "/api/editor/block-data", method: "POST", body: () => ({ language: "de", blocks: [] }), status: 401 },
  "/api/editor/items/:schema": { sample: "/api/editor/items/gm-content-practitioners?q=Berlin", status: 401 },
  "/api/editor/assets": { sample: "/api/editor/assets", status: 401 },
  "/api/editor/geocode": { sample: "/api/editor/geocode?q=Berlin", status: 401 },
  "/api/*": { sample: "/api/no-such-endpoint", status: 404 },
  "/theme/:file": { sample: "/theme/site.css", status: "any" },
  "/sitemap.xml": { sample: "/sitemap.xml", status: 200 },
  "/robots.txt": { sample: "/robots.txt", status: 200 },
  "/manifest.webmanifest": { sample: "/manifest.webmanifest", status: 200 },
  "/en/manifest.webmanifest": { sample: "/en/manifest.webmanifest", status: 200 },
  "/pwa/icons/:file": { sample: "/pwa/icons/icon-192.png", status: 200 },
  "/__test/error": { sample: "/__test/error", status: "any" },
  "/__test/injected-script": { sample: "/__test/injected-script", status: "any" },
  "/__test/rich-text": { sample: "/__test/rich-text", status: "any" },
  "/__test/consent-service.js": { sample: "/__test/consent-service.js", status: "any" },
  "/manage/flushcache": { sample: "/manage/flushcache", status: 200, data: true },
  ...siteRoutes(""),
  ...siteRoutes("/en"),
  ...siteRoutes("/de"),
};

const resolve = (s: Sample, ctx: Ctx) => (typeof s === "function" ? s(ctx) : s);

// ---- what each route module asks for ------------------------------------------------------------

interface RouteModule {
  handle?: unknown;
  action?: unknown;
}
const modules = new Map<string, RouteModule>();
async function moduleOf(file: string): Promise<RouteModule> {
  if (!modules.has(file)) modules.set(file, (await import(/* @vite-ignore */ path.resolve(import.meta.dirname, "../../app", file))) as RouteModule);
  return modules.get(file)!;
}
/** The strongest requirement along the route's chain of modules, as the auth gate computes it. */
async function requirementOfRoute(route: FlatRoute): Promise<Requirement> {
  let result: Requirement = "none";
  for (const file of route.chain) result = strongest(result, requirementOf((await moduleOf(file)).handle, file));
  return result;
}

// ---- the run --------------------------------------------------------------------------------------

type Role = "anonymous" | "editor" | "superuser";
const ROLES: Role[] = ["anonymous", "editor", "superuser"];

let server: RunningServer;
let bearer: string;
const cookies: Record<Role, string | undefined> = { anonymous: undefined, editor: undefined, superuser: undefined };
let ctx: Ctx;
/** In the drafts' content only, never in a URL (404 pages may echo the path they were asked for). */
const MARKER = `draftmarker${randomBytes(6).toString("hex")}`;
/** In the drafts' names and slugs: what the sample URLs are made of. */
const NAME_TOKEN = `entwurf${randomBytes(6).toString("hex")}`;
const FLUSH_TOKEN = `flush-${randomBytes(16).toString("hex")}`;
/** Route × role cells checked (for the summary line). */
const covered = new Set<string>();
const cell = (what: string, role: Role) => covered.add(`${what} @ ${role}`);

const squidex = (p: string) => `${server.url}/api/squidex/api${p}`;
async function squidexJson(p: string, init: RequestInit = {}): Promise<any> {
  const res = await fetch(squidex(p), { ...init, headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json", "X-Unpublished": "1", ...(init.headers as Record<string, string>) } });
  const text = await res.text();
  expect(res.status, `${init.method ?? "GET"} ${p}: ${text.slice(0, 300)}`).toBeLessThan(300);
  return text ? JSON.parse(text) : undefined;
}

const slugify = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");

beforeAll(async () => {
  server = await startServer({ env: { FLUSH_TOKEN } });
  bearer = await squidexToken(server);
  cookies.superuser = await signIn(server, DEMO_ADMIN.email, DEMO_ADMIN.password);
  cookies.editor = await createUser(server, cookies.superuser, { email: "matrix-editor@example.com", password: "editor-password-123" });

  // Existing items for parameterised samples.
  const practitioners = await squidexJson("/content/praxisnetz/gm-content-practitioners?$top=50");
  const published = practitioners.items.find((i: any) => i.status === "Published" && i.data?.display?.iv === true) ?? practitioners.items[0];
  const appointments = await squidexJson("/content/praxisnetz/gm-appointments?$top=1");
  const assets = await squidexJson("/apps/praxisnetz/assets?$top=1");
  const pages = await squidexJson("/content/praxisnetz/core-pages?$top=200");
  const home = pages.items.find((i: any) => i.data?.seo?.de?.slug === "home");
  expect(home, "a page with the slug home").toBeDefined();

  // Drafts with a unique marker: a practitioner (visible, on this site) and a page in the header menu.
  const practitionerData = structuredClone(published.data);
  practitionerData.name = { iv: `Dr. ${NAME_TOKEN}` };
  practitionerData.description = { de: `Beschreibung ${MARKER}`, en: `Description ${MARKER}` };
  const draftPractitioner = await squidexJson("/content/praxisnetz/gm-content-practitioners", { method: "POST", body: JSON.stringify(practitionerData) });
  expect(draftPractitioner.status).toBe("Draft");

  const draftPageSlug = `seite-${NAME_TOKEN}`;
  const pageData = structuredClone(pages.items[0].data);
  pageData.title = { de: `Titel ${MARKER}`, en: `Title ${MARKER}` };
  for (const language of ["de", "en"]) pageData.seo[language] = { ...pageData.seo[language], seotitle: `SEO ${MARKER}`, slug: draftPageSlug, description: `Meta ${MARKER}` };
  pageData.navigation = { iv: "header" };
  const draftPage = await squidexJson("/content/praxisnetz/core-pages", { method: "POST", body: JSON.stringify(pageData) });
  expect(draftPage.status).toBe("Draft");

  ctx = {
    itemId: published.id,
    homePageId: home.id,
    appointmentId: appointments.items[0].id,
    assetId: assets.items[0].id,
    draftPageSlug,
    draftPractitionerId: draftPractitioner.id,
    draftPractitionerSlug: slugify(`Dr. ${NAME_TOKEN}`),
  };
}, 120_000);

afterAll(async () => {
  console.log(
    `authz matrix: ${ROUTES.length} routes in app/routes.ts (${ROUTES.filter(isManage).length} under /manage) × ${ROLES.length} roles; ${covered.size} route×role cells checked`,
  );
  await server?.stop();
});

describe("the route table", () => {
  it("has a sample and an expectation for every route", async () => {
    const missing = ROUTES.filter((r) => !(isManage(r) ? MANAGE[r.pattern] : PUBLIC[r.pattern])).map((r) => `${r.pattern} (${r.file})`);
    expect(missing, "routes without a sample URL/expectation in tests/api/authz-matrix.test.ts").toEqual([]);
    const stale = [...Object.keys(MANAGE), ...Object.keys(PUBLIC)].filter((p) => !ROUTES.some((r) => r.pattern === p));
    expect(stale, "expectations for routes that no longer exist").toEqual([]);
    expect(ROUTES.filter(isManage).length).toBeGreaterThanOrEqual(20);
  });

  it("guards every /manage route (from its module's handle), and only /manage routes", async () => {
    for (const route of ROUTES) {
      const needs = await requirementOfRoute(route);
      if (isManage(route) || isGuardedApi(route)) expect(needs, route.pattern).not.toBe("none");
      else expect(needs, `${route.pattern} is public`).toBe("none");
    }
    // The superuser screens of the spec (a regression check on the handles themselves).
    expect(await requirementOfRoute(ROUTES.find((r) => r.pattern === "/manage/users")!)).toBe("superuser");
    expect(await requirementOfRoute(ROUTES.find((r) => r.pattern === "/manage/audit")!)).toBe("superuser");
  });
});

/** The single-fetch redirect payload of a `.data` request that must sign in first. */
function expectDataRedirectToLogin(status: number, text: string, back: string, label: string) {
  expect(status, label).toBe(202);
  // Loader redirects come as ["SingleFetchRedirect", …], action redirects as a bare { redirect, status } object.
  expect(text, label).toContain(`"redirect",${JSON.stringify(`/login?redirect=${encodeURIComponent(back)}`)},"status",302`);
}

describe("/manage routes", () => {
  for (const role of ROLES) {
    it(`documents and .data requests, as ${role}`, async () => {
      const problems: string[] = [];
      for (const route of ROUTES.filter(isManage)) {
        const exp = MANAGE[route.pattern]!;
        const url = resolve(exp.sample, ctx);
        const needs = await requirementOfRoute(route);
        const cookie = cookies[role];
        const headers: Record<string, string> = cookie ? { cookie } : {};
        const doc = await fetch(`${server.url}${url}`, { redirect: "manual", headers });
        const docText = await doc.text();
        const data = await fetch(`${server.url}${url}.data`, { redirect: "manual", headers });
        const dataText = await data.text();
        const check = (ok: boolean, what: string) => ok || problems.push(`${role} ${url}: ${what}`);
        if (role === "anonymous") {
          check(doc.status === 302, `document ${doc.status}, want 302`);
          check(doc.headers.get("location") === `/login?redirect=${encodeURIComponent(url)}`, `Location ${doc.headers.get("location")}`);
          check(!docText.includes(MARKER), "marker in the redirect");
          try {
            expectDataRedirectToLogin(data.status, dataText, url, `${url}.data`);
          } catch (e) {
            problems.push(`${role} ${url}.data: ${(e as Error).message.split("\n")[0]} (${data.status} ${dataText.slice(0, 120)})`);
          }
        } else {
          const want = needs === "superuser" && role === "editor" ? 403 : exp.status;
          check(doc.status === want, `document ${doc.status}, want ${want}`);
          check(data.status === want, `.data ${data.status}, want ${want}`);
          if (want === 200) check(docText.includes("data-admin-layout"), "document without the admin layout");
        }
        cell(`GET ${route.pattern}`, role);
        cell(`GET ${route.pattern}.data`, role);
      }
      expect(problems).toEqual([]);
    }, 120_000);

    it(`form posts to /manage actions, as ${role}`, async () => {
      const problems: string[] = [];
      for (const route of ROUTES.filter(isManage)) {
        if (typeof (await moduleOf(route.file)).action !== "function") continue;
        const url = resolve(MANAGE[route.pattern]!.sample, ctx);
        const needs = await requirementOfRoute(route);
        const planned = MANAGE_POSTS[route.pattern]?.(role) ?? { fields: { intent: "authz-matrix-probe" }, status: undefined };
        const res = await postForm(server, url, planned.fields, cookies[role]);
        const text = await res.text();
        const check = (ok: boolean, what: string) => ok || problems.push(`${role} POST ${url}: ${what} (${text.slice(0, 160)})`);
        if (role === "anonymous") {
          check(res.status === 303, `status ${res.status}, want 303`);
          check(res.headers.get("location") === `/login?redirect=${encodeURIComponent(url)}`, `Location ${res.headers.get("location")}`);
        } else if (needs === "superuser" && role === "editor") {
          check(res.status === 403, `status ${res.status}, want 403`);
        } else if (planned.status !== undefined) {
          check(res.status === planned.status, `status ${res.status}, want ${planned.status}`);
        } else {
          check(![301, 302, 303, 401, 403].includes(res.status) && res.status < 500, `status ${res.status} for an allowed role`);
        }
        // The same through a data request (what the admin UI's <Form> sends).
        const dataRes = await postForm(server, `${url}.data`, MANAGE_POSTS[route.pattern]?.(role).fields ?? planned.fields, cookies[role]);
        const dataText = await dataRes.text();
        if (role === "anonymous") {
          try {
            expectDataRedirectToLogin(dataRes.status, dataText, url, `POST ${url}.data`);
          } catch (e) {
            problems.push(`anonymous POST ${url}.data: ${(e as Error).message.split("\n")[0]} (${dataRes.status} ${dataText.slice(0, 120)})`);
          }
        } else if (needs === "superuser" && role === "editor") {
          check(dataRes.status === 403, `.data status ${dataRes.status}, want 403`);
        } else {
          check(dataRes.status < 500 && ![401, 403].includes(dataRes.status) && !dataText.includes('"redirect","/login'), `.data status ${dataRes.status}`);
        }
        cell(`POST ${route.pattern}`, role);
      }
      expect(problems).toEqual([]);
    }, 120_000);
  }

  it("the editor's invite attempt left no user behind; the superuser's did", async () => {
    const res = await fetch(`${server.url}/manage/users.data`, { headers: { cookie: cookies.superuser! } });
    const text = await res.text();
    expect(text).toContain("matrix-superuser-");
    expect(text).not.toContain("matrix-editor-");
  });
});

describe("draft-reading and mutating APIs", () => {
  const draftUrl = () => `/content/praxisnetz/gm-content-practitioners/${ctx.draftPractitionerId}`;

  for (const role of ROLES) {
    it(`as ${role}`, async () => {
      const cookie = cookies[role];
      const headers: Record<string, string> = { origin: server.url, ...(cookie ? { cookie } : {}) };
      const signedIn = role !== "anonymous";

      // /api/rest and /api/getcontentitem with unpublished:true: drafts for editors only.
      const rest = await fetch(`${server.url}/api/rest`, {
        method: "POST",
        headers: { ...headers, "content-type": "application/json" },
        body: JSON.stringify({ url: "gm-content-practitioners?$top=200", language: "de", unpublished: true }),
      });
      const restText = await rest.text();
      expect(rest.status).toBe(200);
      expect(restText.includes(MARKER), `/api/rest unpublished as ${role}`).toBe(signedIn);
      cell("POST /api/rest unpublished", role);

      const item = await fetch(`${server.url}/api/getcontentitem`, {
        method: "POST",
        headers: { ...headers, "content-type": "application/json" },
        body: JSON.stringify({ url: "gm-content-practitioners", id: ctx.draftPractitionerId, language: "de", unpublished: true }),
      });
      const itemText = await item.text();
      expect(item.status, itemText).toBe(signedIn ? 200 : 404);
      expect(itemText.includes(MARKER)).toBe(signedIn);
      cell("POST /api/getcontentitem unpublished", role);

      // The Squidex API with the browser's session instead of a bearer token.
      const read = await fetch(squidex(draftUrl()), { headers: { ...headers, "X-Unpublished": "1" } });
      const readText = await read.text();
      expect(read.status, readText).toBe(signedIn ? 200 : 401);
      expect(readText.includes(MARKER)).toBe(signedIn);
      cell("GET /api/squidex content (draft)", role);

      const create = await fetch(squidex("/content/praxisnetz/core-theme-colors"), {
        method: "POST",
        headers: { ...headers, "content-type": "application/json" },
        body: JSON.stringify({ name: { iv: `Matrix ${role}` }, hexcode: { iv: "#123456" } }),
      });
      const created = await create.text();
      expect(create.status, created).toBe(signedIn ? 201 : 401);
      cell("POST /api/squidex content", role);

      // Deleting content is for superusers; the victim is made with the bearer token.
      const victim = await squidexJson("/content/praxisnetz/core-theme-colors", { method: "POST", body: JSON.stringify({ name: { iv: `Victim ${role}` }, hexcode: { iv: "#654321" } }) });
      const del = await fetch(squidex(`/content/praxisnetz/core-theme-colors/${victim.id}`), { method: "DELETE", headers });
      await del.arrayBuffer();
      expect(del.status).toBe(role === "superuser" ? 204 : role === "editor" ? 403 : 401);
      const still = await fetch(squidex(`/content/praxisnetz/core-theme-colors/${victim.id}`), { headers: { authorization: `Bearer ${bearer}`, "X-Unpublished": "1" } });
      await still.arrayBuffer();
      expect(still.status, "the item is gone only after the superuser's delete").toBe(role === "superuser" ? 404 : 200);
      cell("DELETE /api/squidex content", role);

      // Creating a schema (changeSchema): superusers (and client tokens); editors only block-* schemas.
      const schema = await fetch(squidex("/apps/praxisnetz/schemas"), {
        method: "POST",
        headers: { ...headers, "content-type": "application/json" },
        body: JSON.stringify({ name: `matrix-${role}`, fields: [{ name: "title", properties: { fieldType: "String" } }] }),
      });
      const schemaText = await schema.text();
      expect(schema.status, schemaText).toBe(role === "superuser" ? 201 : role === "editor" ? 403 : 401);
      cell("POST /api/squidex schemas", role);

      // A cross-site request with the same session changes nothing.
      const foreign = await fetch(squidex("/content/praxisnetz/core-theme-colors"), {
        method: "POST",
        headers: { ...headers, origin: "https://evil.example", "content-type": "application/json" },
        body: JSON.stringify({ name: { iv: "Evil" }, hexcode: { iv: "#000000" } }),
      });
      await foreign.arrayBuffer();
      expect(foreign.status).toBe(403);
    });
  }
});

describe("/manage/flushcache", () => {
  it("does nothing without a token or session, flushes with the token (header, bearer, query, form) or a session, at most every 10 s", async () => {
    type FlushAttempt = { headers?: Record<string, string>; query?: string; form?: Record<string, string> };
    const post = (init: FlushAttempt = {}) =>
      fetch(`${server.url}/manage/flushcache${init.query ?? ""}`, {
        method: "POST",
        redirect: "manual",
        headers: { origin: server.url, ...(init.form ? { "content-type": "application/x-www-form-urlencoded" } : {}), ...init.headers },
        body: init.form ? new URLSearchParams(init.form) : undefined,
      }).then(async (r) => ({ status: r.status, text: await r.text() }));

    // Refused: nothing, a wrong token in every place, a token of the wrong length.
    const refusedAttempts: FlushAttempt[] = [{}, { headers: { "x-flush-token": "wrong-token-wrong-token" } }, { headers: { authorization: "Bearer nope" } }, { query: "?token=nope" }, { form: { token: FLUSH_TOKEN.slice(0, -1) } }];
    for (const attempt of refusedAttempts) {
      const res = await post(attempt);
      expect(res.status, JSON.stringify(attempt)).toBe(403);
    }
    cell("POST /manage/flushcache", "anonymous");

    const first = await post({ headers: { "x-flush-token": FLUSH_TOKEN } });
    expect(first.status).toBe(200);
    const tooSoon = await post({ headers: { authorization: `Bearer ${FLUSH_TOKEN}` } });
    expect(tooSoon.status).toBe(429);
    // Still refused without a token while the interval runs (403, not 429: nothing about the state leaks).
    expect((await post()).status).toBe(403);

    await new Promise((r) => setTimeout(r, 10_200));
    expect((await post({ headers: { cookie: cookies.editor! } })).status).toBe(200);
    cell("POST /manage/flushcache", "editor");
    await new Promise((r) => setTimeout(r, 10_200));
    expect((await post({ form: { token: FLUSH_TOKEN } })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 10_200));
    expect((await post({ query: `?token=${FLUSH_TOKEN}` })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 10_200));
    expect((await post({ headers: { cookie: cookies.superuser! } })).status).toBe(200);
    cell("POST /manage/flushcache", "superuser");

    // A cross-site post is refused before the token is looked at.
    const foreign = await post({ headers: { origin: "https://evil.example", "x-flush-token": FLUSH_TOKEN } });
    expect(foreign.status).toBe(403);
  }, 90_000);
});

describe("drafts never reach anonymous visitors", () => {
  it("on any public route, page, data request or API", async () => {
    const leaks: string[] = [];
    const errors: string[] = [];
    for (const route of ROUTES.filter((r) => !isManage(r))) {
      const exp = PUBLIC[route.pattern]!;
      const url = resolve(exp.sample, ctx);
      const res = await fetch(`${server.url}${url}`, {
        method: exp.method ?? "GET",
        redirect: "manual",
        headers: exp.body ? { "content-type": "application/json", origin: server.url } : {},
        body: exp.body ? JSON.stringify(exp.body(ctx)) : undefined,
      });
      const text = await res.text();
      if (text.includes(MARKER) || [...res.headers.values()].some((v) => v.includes(MARKER))) leaks.push(`${exp.method ?? "GET"} ${url}`);
      if (res.status >= 500 && route.pattern !== "/__test/error") errors.push(`${url}: ${res.status}`);
      if (exp.status !== "any" && res.status !== exp.status) errors.push(`${url}: ${res.status}, want ${exp.status}`);
      if (exp.data) {
        const data = await fetch(`${server.url}${url === "/" ? "/_root" : url}.data`, { redirect: "manual" });
        const dataText = await data.text();
        if (dataText.includes(MARKER)) leaks.push(`GET ${url}.data`);
        if (data.status >= 500) errors.push(`${url}.data: ${data.status}`);
      }
      cell(`public ${route.pattern}`, "anonymous");
    }
    // Beyond the samples: the sitemap, the list APIs with every language, the practitioner map.
    for (const language of ["de", "en"]) {
      for (const collection of ["core-pages", "gm-content-practitioners?$top=500", "core-backend-navigation"]) {
        const res = await fetch(`${server.url}/api/rest`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: server.url },
          body: JSON.stringify({ url: collection, language, unpublished: true }),
        });
        const text = await res.text();
        if (text.includes(MARKER)) leaks.push(`/api/rest ${collection} ${language}`);
      }
    }
    // A forged session cookie is no session.
    const forged = await fetch(`${server.url}/api/rest`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url, cookie: "pn_session=eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..AAAA.BBBB.CCCC" },
      body: JSON.stringify({ url: "gm-content-practitioners?$top=200", language: "de", unpublished: true }),
    });
    if ((await forged.text()).includes(MARKER)) leaks.push("/api/rest with a forged cookie");
    expect(leaks, `the draft marker ${MARKER} reached anonymous visitors`).toEqual([]);
    expect(errors).toEqual([]);

    // The control: the same draft is there for an editor, so the scan would see a leak.
    const editorView = await fetch(`${server.url}/api/getcontentitem`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url, cookie: cookies.editor! },
      body: JSON.stringify({ url: "gm-content-practitioners", id: ctx.draftPractitionerId, language: "de", unpublished: true }),
    });
    expect(await editorView.text()).toContain(MARKER);
  }, 120_000);
});
