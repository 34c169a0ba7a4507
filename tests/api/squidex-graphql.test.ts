import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_ADMIN, signIn } from "../support/auth";
import { squidexToken, startServer, type RunningServer } from "../support/server";

/**
 * GraphQL over the content: the Squidex endpoint (`/api/squidex/api/content/{app}/graphql`, token or
 * session) and the site's `/api/graphql` (visitors too), on a real server with the demo content.
 */
let server: RunningServer;
let token: string;
let adminCookie: string;
const MARKER = `GraphQL-Entwurf-${Date.now()}`;
let draftId: string;

type Answer = { status: number; body: { data?: Record<string, any>; errors?: { message: string }[] } & Record<string, any> };

async function answer(res: Response): Promise<Answer> {
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : {} };
}

const endpoint = () => `${server.url}/api/squidex/api/content/praxisnetz/graphql`;

function squidexGql(body: unknown, headers: Record<string, string> = {}, path = ""): Promise<Answer> {
  return fetch(`${endpoint()}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  }).then(answer);
}

function siteGql(body: unknown, cookie?: string): Promise<Answer> {
  return fetch(`${server.url}/api/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url, ...(cookie ? { cookie } : {}) },
    body: typeof body === "string" ? body : JSON.stringify(body),
  }).then(answer);
}

beforeAll(async () => {
  server = await startServer();
  token = await squidexToken(server);
  adminCookie = await signIn(server, DEMO_ADMIN.email, DEMO_ADMIN.password);
  // A practitioner draft shown on this site once published, with private fields.
  const res = await fetch(`${server.url}/api/squidex/api/content/praxisnetz/gm-content-practitioners`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ name: { iv: MARKER }, city: { iv: "Kassel" }, display: { iv: true }, websites: { iv: ["PRAXISNETZ"] }, email: { iv: "entwurf@example.com" } }),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  draftId = ((await res.json()) as { id: string }).id;
});
afterAll(async () => {
  await server?.stop();
});

describe("Squidex GraphQL endpoint", () => {
  it("serves pages with data per language and flatData in the asked language", async () => {
    const query = "{ queryCorePagesContents(top: 50) { id status version created lastModified data { title { de en } } flatData { title } } }";
    const de = await squidexGql({ query });
    expect(de.status, JSON.stringify(de.body)).toBe(200);
    expect(de.body.errors).toBeUndefined();
    const pages = de.body.data!.queryCorePagesContents as { id: string; status: string; data: { title: { de: string; en: string } }; flatData: { title: string } }[];
    expect(pages.length).toBeGreaterThan(1);
    for (const p of pages) {
      expect(p.status).toBe("Published");
      expect(p.flatData.title).toBe(p.data.title.de);
    }
    expect(pages.some((p) => p.data.title.de !== p.data.title.en)).toBe(true);
    const en = await squidexGql({ query }, { "X-Languages": "en" });
    const enPages = en.body.data!.queryCorePagesContents as typeof pages;
    for (const p of enPages) expect(p.flatData.title).toBe(p.data.title.en);
  });

  it("pages practitioners with a total, finds one by id and filters with OData", async () => {
    const list = await squidexGql({ query: "{ queryGmContentPractitionersContentsWithTotal(top: 2) { total items { id version flatData { name city email speciality } data { speciality { de en } } } } }" });
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    const { total, items } = list.body.data!.queryGmContentPractitionersContentsWithTotal;
    expect(total).toBeGreaterThan(2);
    expect(items).toHaveLength(2);
    expect(items.some((i: any) => typeof i.flatData.email === "string")).toBe(true);

    const first = items[0];
    const found = await squidexGql({
      query: "query One($id: String!) { findGmContentPractitionersContent(id: $id) { id flatData { name } } }",
      variables: { id: first.id },
    });
    expect(found.body.data!.findGmContentPractitionersContent).toEqual({ id: first.id, flatData: { name: first.flatData.name } });
    const missing = await squidexGql({ query: '{ findGmContentPractitionersContent(id: "no-such-item") { id } }' });
    expect(missing.body.data!.findGmContentPractitionersContent).toBeNull();

    const city = first.flatData.city as string;
    const filtered = await squidexGql({ query: `{ queryGmContentPractitionersContents(filter: "data/city/iv eq '${city}'", orderby: "data/name/iv asc") { flatData { city name } } }` });
    const cities = filtered.body.data!.queryGmContentPractitionersContents as { flatData: { city: string; name: string } }[];
    expect(cities.length).toBeGreaterThan(0);
    expect(cities.every((c) => c.flatData.city === city)).toBe(true);
    // A filter the OData parser refuses is an execution error with its message, not a 5xx.
    const bad = await squidexGql({ query: '{ queryGmContentPractitionersContents(filter: "data/city/iv eq") { id } }' });
    expect(bad.status).toBe(200);
    expect(bad.body.errors?.[0]?.message).toBeTruthy();
    expect(bad.body.data!.queryGmContentPractitionersContents).toBeNull();
  });

  it("resolves references and lists referencing items, as the REST filter finds them", async () => {
    const res = await squidexGql({
      query: "{ queryGmAppointmentsContents(top: 3) { id flatData { practitioner { id referencingGmAppointmentsContents(top: 5) { id flatData { practitioner { id } } } } } } }",
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.errors).toBeUndefined();
    const appointments = res.body.data!.queryGmAppointmentsContents as any[];
    expect(appointments.length).toBe(3);
    for (const a of appointments) {
      const practitioner = a.flatData.practitioner[0];
      expect(practitioner.id).toBeTruthy();
      const referencing = practitioner.referencingGmAppointmentsContents as any[];
      expect(referencing.length).toBeGreaterThan(0);
      for (const r of referencing) expect(r.flatData.practitioner[0].id).toBe(practitioner.id);
      const rest = await fetch(
        `${server.url}/api/squidex/api/content/praxisnetz/gm-appointments?$top=5&$filter=${encodeURIComponent(`data/practitioner/iv eq '${practitioner.id}'`)}`,
        { headers: { authorization: `Bearer ${token}` } },
      );
      const restIds = ((await rest.json()) as { items: { id: string }[] }).items.map((i) => i.id);
      expect(referencing.map((r) => r.id)).toEqual(restIds);
    }
  });

  it("shows drafts only with X-Unpublished, to a token or a session", async () => {
    const query = `{ queryGmContentPractitionersContents(filter: "data/name/iv eq '${MARKER}'") { id status flatData { name } } }`;
    const hidden = await squidexGql({ query });
    expect(hidden.body.data!.queryGmContentPractitionersContents).toEqual([]);
    const shown = await squidexGql({ query }, { "X-Unpublished": "1" });
    expect(shown.body.data!.queryGmContentPractitionersContents).toEqual([{ id: draftId, status: "Draft", flatData: { name: MARKER } }]);
    const bySession = await fetch(endpoint(), {
      method: "POST",
      headers: { cookie: adminCookie, "content-type": "application/json", "X-Unpublished": "1" },
      body: JSON.stringify({ query }),
    }).then(answer);
    expect(bySession.body.data!.queryGmContentPractitionersContents).toHaveLength(1);
    const find = await squidexGql({ query: `{ findGmContentPractitionersContent(id: "${draftId}") { id } }` });
    expect(find.body.data!.findGmContentPractitionersContent).toBeNull();
  });

  it("refuses too deep and too costly queries with a message, and unparsable ones with 400", async () => {
    const deep = await squidexGql({
      query:
        "{ queryGmContentPractitionersContents(top: 1) { referencingGmAppointmentsContents(top: 1) { flatData { practitioner { referencingGmAppointmentsContents(top: 1) { flatData { practitioner { referencingGmAppointmentsContents(top: 1) { flatData { practitioner { id } } } } } } } } } } }",
    });
    expect(deep.status).toBe(400);
    expect(deep.body.errors?.[0]?.message).toMatch(/levels deep; at most 8/);
    const costly = await squidexGql({ query: "{ queryGmContentPractitionersContents(top: 200) { referencingGmAppointmentsContents(top: 200) { id } } }" });
    expect(costly.status).toBe(400);
    expect(costly.body.errors?.[0]?.message).toMatch(/at most 10000 are allowed/);
    const viaVariables = await squidexGql({
      query: "query Q($n: Int) { queryGmContentPractitionersContents(top: $n) { referencingGmAppointmentsContents(top: $n) { id } } }",
      variables: { n: 150 },
    });
    expect(viaVariables.status).toBe(400);
    const broken = await squidexGql({ query: "{ queryCorePagesContents { id " });
    expect(broken.status).toBe(400);
    expect(broken.body.errors?.[0]?.message).toMatch(/Syntax Error/);
    const unknown = await squidexGql({ query: "{ queryNoSuchContents { id } }" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors?.[0]?.message).toMatch(/Cannot query field/);
    const noQuery = await squidexGql({ variables: {} });
    expect(noQuery.status).toBe(400);
    const notJson = await squidexGql("{not json");
    expect(notJson.status).toBe(400);
    const huge = await squidexGql({ query: `{ queryCorePagesContents { id } } # ${"x".repeat(20_000)}` });
    expect(huge.status).toBe(400);
    expect(huge.body.errors?.[0]?.message).toMatch(/longer than/);
  });

  it("answers a batch and the GET form", async () => {
    const batch = await squidexGql(
      [{ query: "{ queryCorePagesContents(top: 1) { id } }" }, { query: "query P($t: Int) { queryGmContentPractitionersContents(top: $t) { id } }", variables: { t: 2 } }, { query: "{" }],
      {},
      "/batch",
    );
    expect(batch.status).toBe(200);
    const results = batch.body as unknown as Answer["body"][];
    expect(results).toHaveLength(3);
    expect(results[0]!.data!.queryCorePagesContents).toHaveLength(1);
    expect(results[1]!.data!.queryGmContentPractitionersContents).toHaveLength(2);
    expect(results[2]!.errors?.[0]?.message).toMatch(/Syntax Error/);
    const notArray = await squidexGql({ query: "{ queryCorePagesContents { id } }" }, {}, "/batch");
    expect(notArray.status).toBe(400);

    const params = new URLSearchParams({ query: "query P($t: Int) { queryCorePagesContents(top: $t) { id } }", variables: JSON.stringify({ t: 2 }) });
    const get = await fetch(`${endpoint()}?${params}`, { headers: { authorization: `Bearer ${token}` } }).then(answer);
    expect(get.status, JSON.stringify(get.body)).toBe(200);
    expect(get.body.data!.queryCorePagesContents).toHaveLength(2);
  });

  it("needs a token or a session", async () => {
    const post = await fetch(endpoint(), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query: "{ queryCorePagesContents { id } }" }) });
    expect(post.status).toBe(401);
    const get = await fetch(`${endpoint()}?query=${encodeURIComponent("{ queryCorePagesContents { id } }")}`);
    expect(get.status).toBe(401);
    const batch = await fetch(`${endpoint()}/batch`, { method: "POST", headers: { authorization: "Bearer forged" }, body: "[]" });
    expect(batch.status).toBe(401);
  });
});

describe("the site's /api/graphql", () => {
  it("lets visitors read what they may see: published, shown on this site, no private fields", async () => {
    const res = await siteGql({ graphquery: "{ queryGmContentPractitionersContents { id status flatData { name city } } }" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const items = res.body.data!.queryGmContentPractitionersContents as { id: string; status: string }[];
    const rest = await fetch(`${server.url}/api/rest`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url },
      body: JSON.stringify({ url: "gm-content-practitioners?$top=200", language: "de" }),
    });
    const restIds = ((await rest.json()) as { items: { id: string }[] }).items.map((i) => i.id);
    expect(items.map((i) => i.id).sort()).toEqual(restIds.sort());
    expect(items.every((i) => i.status === "Published")).toBe(true);
    expect(items.some((i) => i.id === draftId)).toBe(false);
    const asked = await siteGql({ graphquery: `{ findGmContentPractitionersContent(id: "${draftId}") { id } }`, unpublished: true });
    expect(asked.body.data!.findGmContentPractitionersContent).toBeNull();

    const privateField = await siteGql({ graphquery: "{ queryGmContentPractitionersContents { flatData { email phone } } }" });
    expect(privateField.status).toBe(400);
    expect(privateField.body.errors?.[0]?.message).toMatch(/Cannot query field "email"/);
    const privateFilter = await siteGql({ graphquery: `{ queryGmContentPractitionersContents(filter: "data/email/iv eq 'a@b.de'") { id } }` });
    expect(privateFilter.body.errors?.[0]?.message).toMatch(/Cannot filter on "email"/);
    const editorOnly = await siteGql({ graphquery: "{ queryCoreBackendNavigationContents { id } }" });
    expect(editorOnly.status).toBe(400);
  });

  it("flattens to the language asked for (German by default)", async () => {
    const query = "{ queryCorePagesContents(top: 50) { data { title { de en } } flatData { title } } }";
    const de = await siteGql({ graphquery: query, key: "pages", cache: true });
    const en = await siteGql({ graphquery: query, language: "en" });
    expect(de.status).toBe(200);
    for (const p of de.body.data!.queryCorePagesContents) expect(p.flatData.title).toBe(p.data.title.de);
    for (const p of en.body.data!.queryCorePagesContents) expect(p.flatData.title).toBe(p.data.title.en);
  });

  it("gives a signed-in editor every field, drafts when asked", async () => {
    const res = await siteGql({ graphquery: `{ findGmContentPractitionersContent(id: "${draftId}") { flatData { name email } } }`, unpublished: true }, adminCookie);
    expect(res.body.data!.findGmContentPractitionersContent).toEqual({ flatData: { name: MARKER, email: "entwurf@example.com" } });
  });

  it("refuses bad input with 400 and a message", async () => {
    const missing = await siteGql({ language: "de" });
    expect(missing.status).toBe(400);
    expect(missing.body.details?.join(" ")).toMatch(/graphquery/);
    const notJson = await siteGql("{oops");
    expect(notJson.status).toBe(400);
    expect(notJson.body.message).toBeTruthy();
    const language = await siteGql({ graphquery: "{ queryCorePagesContents { id } }", language: "fr" });
    expect(language.status).toBe(400);
    const get = await fetch(`${server.url}/api/graphql`);
    expect(get.status).toBe(405);
  });
});
