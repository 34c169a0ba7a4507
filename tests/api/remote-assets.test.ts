import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { squidexSignature } from "../../app/content/remote/webhook";
import { createRemoteSquidex } from "../../app/content/remote/squidex-client";
import { createAssetUpstream } from "../../app/content/remote/upstream";
import { ContentError } from "../../app/content/errors";
import type { ContentStore } from "../../app/content/store";
import { sqliteStoreBackend, type StoreBackend } from "../support/store-backends";
import { DEMO_ADMIN, openStore, postForm, signIn } from "../support/auth";
import { squidexClient, squidexToken, startMirrorOf, startServer, type RunningServer } from "../support/server";

/**
 * Assets of a site on a remote Squidex (issue 23, decision 0037 and its addendum): server B runs with
 * SQUIDEX_URL pointing at server A, whose embedded Squidex API stands in for a Squidex. B mirrors A's
 * asset folders, assets and files (at start, and one asset when the signed webhook names it), and
 * sends its own asset writes to A first, keeping them only as A answered them.
 */

const APP = "praxisnetz";
const SECRET = "remote-assets-webhook-secret-1";
let a: RunningServer;
let b: RunningServer;
let bearer: Record<string, string>;
let admin: string;
let folderOnA: string;
let firstOnA: { id: string; version: number };
/** A store of this process with A as its Squidex: the AssetStore's own upload, without a route in between. */
let backend: StoreBackend;
let local: ContentStore;

const assetsOnA = (p = "", init: RequestInit = {}) => fetch(`${a.url}/api/squidex/api/apps/${APP}/assets${p}`, { ...init, headers: { ...bearer, ...(init.headers as Record<string, string>) } });

async function uploadToA(fileName: string, text: string, query = ""): Promise<{ id: string; version: number; fileVersion: number }> {
  const form = new FormData();
  form.append("file", new Blob([text], { type: "text/plain" }), fileName);
  const res = await assetsOnA(query, { method: "POST", body: form });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; version: number; fileVersion: number };
}

function assetEvent(id: string, type = "Updated") {
  return JSON.stringify({ type: `Asset${type}`, payload: { $type: "EnrichedAssetEvent", type, id }, timestamp: new Date().toISOString() });
}
const hook = (body: string) =>
  fetch(`${b.url}/api/content-webhook`, { method: "POST", headers: { "content-type": "application/json", "x-signature": squidexSignature(body, SECRET) }, body });

/** What B keeps of an asset (its own table), read beside the running server. */
function keptOnB(id: string): { file_name: string; version: number; file_version: number; parent_id: string } | undefined {
  const db = openStore(b.dataDir);
  try {
    return db.prepare("select file_name, version, file_version, parent_id from assets where id = ?").get(id) as ReturnType<typeof keptOnB>;
  } finally {
    db.close();
  }
}
const fileOnB = (id: string) => fetch(`${b.url}/api/assets/${id}`);

beforeAll(async () => {
  a = await startServer({ env: { RATE_LIMIT_PER_HOUR: "100000" } });
  bearer = { authorization: `Bearer ${await squidexToken(a)}` };
  // On A before B first starts: a folder, and a file in it.
  const folder = await assetsOnA("/folders", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ folderName: "Praxisfotos" }) });
  expect(folder.status).toBe(201);
  folderOnA = ((await folder.json()) as { id: string }).id;
  firstOnA = await uploadToA("anfahrt.txt", "Anfahrt: Bus 100 bis Lindenstraße", `?parentId=${folderOnA}`);
  b = await startMirrorOf(a, SECRET);
  admin = await signIn(b, DEMO_ADMIN.email, DEMO_ADMIN.password);
  backend = sqliteStoreBackend("remote-assets", 1024 * 1024);
  local = await backend.openStore();
  await local.migrate();
  local.assets.upstream = createAssetUpstream(createRemoteSquidex({ url: `${a.url}/api/squidex`, app: APP, ...squidexClient(a), timeoutMs: 5000 }), APP);
}, 120_000);
afterAll(async () => {
  await local?.db.destroy();
  await backend?.dispose();
  await b?.stop();
  await a?.stop();
});

describe("assets of a site on a remote Squidex", () => {
  it("mirrors the remote's folders, assets and files at start", async () => {
    const kept = keptOnB(firstOnA.id);
    expect(kept).toMatchObject({ file_name: "anfahrt.txt", version: firstOnA.version, parent_id: folderOnA });
    const db = openStore(b.dataDir);
    try {
      expect(db.prepare("select folder_name from asset_folders where id = ?").get(folderOnA)).toEqual({ folder_name: "Praxisfotos" });
    } finally {
      db.close();
    }
    const file = await fileOnB(firstOnA.id);
    expect(file.status).toBe(200);
    expect(await file.text()).toBe("Anfahrt: Bus 100 bis Lindenstraße");
    // A's own demo assets came along too: B serves every one of them.
    const list = (await (await assetsOnA("?$top=200")).json()) as { items: Array<{ id: string }> };
    for (const { id } of list.items) expect(keptOnB(id), id).toBeDefined();
  });

  it("takes a new asset, a change and a deletion made on Squidex when the signed webhook names them", async () => {
    const made = await uploadToA("sprechzeiten.txt", "Mo–Fr 8–12 Uhr");
    expect(keptOnB(made.id)).toBeUndefined();
    expect(await (await hook(assetEvent(made.id, "Created"))).json()).toMatchObject({ ok: true, written: 1 });
    expect(await (await fileOnB(made.id)).text()).toBe("Mo–Fr 8–12 Uhr");

    const renamed = await assetsOnA(`/${made.id}`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ fileName: "oeffnungszeiten.txt", tags: ["praxis"] }) });
    expect(renamed.status).toBe(200);
    expect(keptOnB(made.id)?.file_name).toBe("sprechzeiten.txt");
    expect(await (await hook(assetEvent(made.id))).json()).toMatchObject({ ok: true, written: 1 });
    expect(keptOnB(made.id)).toMatchObject({ file_name: "oeffnungszeiten.txt", version: ((await renamed.json()) as { version: number }).version });
    // Told again of what it has: nothing to write.
    expect(await (await hook(assetEvent(made.id))).json()).toMatchObject({ ok: true, written: 0 });

    // An event that names nothing in particular: the changes since the newest seen are pulled, assets among them.
    const another = await uploadToA("notdienst.txt", "Notdienst: 116 117");
    const other = JSON.stringify({ type: "AppUpdated", payload: { $type: "EnrichedAppEvent" }, timestamp: new Date().toISOString() });
    const changed = await hook(other);
    expect(changed.status).toBe(200);
    expect(keptOnB(another.id)).toMatchObject({ file_name: "notdienst.txt", version: another.version });
    expect(await (await fileOnB(another.id)).text()).toBe("Notdienst: 116 117");

    expect((await assetsOnA(`/${made.id}`, { method: "DELETE" })).status).toBe(204);
    expect(await (await hook(assetEvent(made.id, "Deleted"))).json()).toMatchObject({ ok: true, removed: 1 });
    expect(keptOnB(made.id)).toBeUndefined();
    expect((await fileOnB(made.id)).status).toBe(404);
    expect(fs.existsSync(path.join(b.dataDir, "assets", made.id))).toBe(false);
  });

  it("an editor's rename and move on the site go to Squidex first, and are kept with Squidex's version", async () => {
    const made = await uploadToA("team.txt", "Unser Team");
    await hook(assetEvent(made.id, "Created"));
    const renamed = await postForm(b, "/manage/squidex-assets", { intent: "rename", id: made.id, fileName: "praxisteam.txt", version: String(made.version) }, admin);
    expect(renamed.status).toBe(200);
    const onA = (await (await assetsOnA(`/${made.id}`)).json()) as { fileName: string; version: number };
    expect(onA.fileName).toBe("praxisteam.txt");
    expect(keptOnB(made.id)).toMatchObject({ file_name: "praxisteam.txt", version: onA.version });

    const moved = await postForm(b, "/manage/squidex-assets", { intent: "move", id: made.id, parentId: folderOnA, version: String(onA.version) }, admin);
    expect(moved.status).toBe(200);
    const after = (await (await assetsOnA(`/${made.id}`)).json()) as { parentId: string; version: number };
    expect(after.parentId).toBe(folderOnA);
    expect(keptOnB(made.id)).toMatchObject({ parent_id: folderOnA, version: after.version });
    // The file stayed where it was: a change of the metadata fetches no bytes.
    expect(await (await fileOnB(made.id)).text()).toBe("Unser Team");
  });

  it("a change made on Squidex since the site read the asset is a conflict, and the site keeps nothing", async () => {
    const made = await uploadToA("konflikt.txt", "Version eins");
    await hook(assetEvent(made.id, "Created"));
    // Changed on Squidex; the site is not told.
    expect((await assetsOnA(`/${made.id}`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ fileName: "anderswo.txt" }) })).status).toBe(200);
    const refused = await postForm(b, "/manage/squidex-assets", { intent: "rename", id: made.id, fileName: "hier.txt" }, admin);
    expect(refused.status).toBe(409);
    expect(keptOnB(made.id)).toMatchObject({ file_name: "konflikt.txt", version: made.version });
    expect(((await (await assetsOnA(`/${made.id}`)).json()) as { fileName: string }).fileName).toBe("anderswo.txt");
  });

  it("an upload through the site's content proxy lands on Squidex and is in the mirror when the answer comes", async () => {
    const form = new FormData();
    form.append("file", new Blob(["Hausordnung der Praxis"], { type: "text/plain" }), "hausordnung.txt");
    const res = await fetch(`${b.url}/api/squidex/api/apps/${APP}/assets`, { method: "POST", headers: { cookie: admin, origin: b.url }, body: form });
    expect(res.status).toBe(201);
    const made = (await res.json()) as { id: string; version: number };
    expect((await assetsOnA(`/${made.id}`)).status).toBe(200);
    expect(keptOnB(made.id)).toMatchObject({ file_name: "hausordnung.txt", version: made.version });
    expect(await (await fileOnB(made.id)).text()).toBe("Hausordnung der Praxis");

    // Deleted on the site: gone on Squidex first, then here.
    const removed = await postForm(b, "/manage/squidex-assets", { intent: "delete", id: made.id, confirmed: "yes" }, admin);
    expect(removed.status).toBe(200);
    expect((await assetsOnA(`/${made.id}`)).status).toBe(404);
    expect(keptOnB(made.id)).toBeUndefined();
  });

  it("the AssetStore's upload goes to Squidex first under the id it chose, and keeps Squidex's answer with the file", async () => {
    const id = "praxis-logo-remote";
    const asset = await local.assets.upload({ id, fileName: "logo.txt", mimeType: "text/plain", body: Buffer.from("Logo der Praxis") });
    const onA = (await (await assetsOnA(`/${id}`)).json()) as { id: string; version: number; fileHash: string; created: string };
    expect(onA.id).toBe(id);
    expect(asset).toMatchObject({ id, version: onA.version, fileHash: onA.fileHash, created: onA.created, fileSize: 15 });
    expect((await local.assets.read(id)).body.toString()).toBe("Logo der Praxis");
    // An id Squidex has already (not this store): Squidex's 409 is the conflict, and nothing is kept here.
    await uploadToA("anderes.txt", "schon da", "?id=taken-on-squidex");
    await expect(local.assets.upload({ id: "taken-on-squidex", fileName: "x.txt", mimeType: "text/plain", body: Buffer.from("x") })).rejects.toMatchObject({ statusCode: 409 });
    expect(await local.assets.get("taken-on-squidex")).toBeUndefined();
    expect(fs.existsSync(path.join(local.assets.dir, "taken-on-squidex"))).toBe(false);
    // A folder this store does not know is refused before Squidex is asked.
    await expect(local.assets.upload({ fileName: "x.txt", mimeType: "text/plain", body: Buffer.from("x"), parentId: "no-such-folder" })).rejects.toMatchObject({ statusCode: 400 });
    const folder = await local.assets.createFolder({ folderName: "Logos" });
    expect(((await (await assetsOnA(`/folders`)).json()) as { items: Array<{ id: string; folderName: string }> }).items).toContainEqual(expect.objectContaining({ id: folder.id, folderName: "Logos" }));
    const moved = await local.assets.move(id, folder.id);
    expect(((await (await assetsOnA(`/${id}`)).json()) as { parentId: string; version: number })).toMatchObject({ parentId: folder.id, version: moved.version });
    await local.assets.delete(id);
    expect((await assetsOnA(`/${id}`)).status).toBe(404);
    await local.assets.deleteFolder(folder.id);
    expect(await local.assets.getFolder(folder.id)).toBeUndefined();
  });

  it("the AssetStore's slug, metadata and protection, a new file and an upsert go to Squidex first, and are kept as Squidex answered", async () => {
    const id = "remote-annotated";
    await local.assets.upload({ id, fileName: "plan.txt", mimeType: "text/plain", body: Buffer.from("Plan eins") });
    const annotated = await local.assets.annotate(id, { slug: "praxis-plan.txt", metadata: { description: "Lageplan" }, isProtected: true });
    const onA = (await (await assetsOnA(`/${id}`)).json()) as { slug: string; metadata: Record<string, unknown>; isProtected: boolean; version: number };
    expect(onA).toMatchObject({ slug: "praxis-plan.txt", metadata: { description: "Lageplan" }, isProtected: true, version: annotated.version });
    expect(annotated).toMatchObject({ slug: "praxis-plan.txt", metadata: { description: "Lageplan" }, isProtected: true });
    // Squidex now keeps the file from visitors.
    expect((await fetch(`${a.url}/api/squidex/api/assets/${APP}/${id}`)).status).toBe(403);
    // What this store would refuse, Squidex is not asked.
    await expect(local.assets.annotate(id, { slug: "Kein Slug" })).rejects.toMatchObject({ statusCode: 400 });
    await expect(local.assets.annotate(id, { metadata: { deep: { x: 1 } } })).rejects.toMatchObject({ statusCode: 400 });
    expect(((await (await assetsOnA(`/${id}`)).json()) as { version: number }).version).toBe(annotated.version);

    const replaced = await local.assets.replaceContent(id, { fileName: "plan-2.txt", mimeType: "text/plain", body: Buffer.from("Plan zwei") });
    const afterReplace = (await (await assetsOnA(`/${id}`)).json()) as { fileName: string; fileVersion: number; version: number; slug: string };
    expect(afterReplace).toMatchObject({ fileName: "plan-2.txt", fileVersion: annotated.fileVersion + 1, version: replaced.version, slug: "praxis-plan.txt" });
    expect(replaced).toMatchObject({ fileName: "plan-2.txt", fileVersion: afterReplace.fileVersion, fileSize: 9 });
    expect(await (await fetch(`${a.url}/api/squidex/api/assets/${APP}/${id}`, { headers: bearer })).text()).toBe("Plan zwei");
    expect((await local.assets.read(id)).body.toString()).toBe("Plan zwei");
    expect(fs.readdirSync(path.join(local.assets.dir, id))).toEqual([String(afterReplace.fileVersion)]);

    // Changed on Squidex meanwhile: Squidex's conflict, and nothing is kept here.
    expect((await assetsOnA(`/${id}`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ tags: ["anderswo"] }) })).status).toBe(200);
    await expect(local.assets.replaceContent(id, { fileName: "plan-3.txt", mimeType: "text/plain", body: Buffer.from("Plan drei") })).rejects.toMatchObject({ statusCode: 409 });
    expect(await local.assets.get(id)).toMatchObject({ fileName: "plan-2.txt", version: replaced.version });
    expect((await local.assets.read(id)).body.toString()).toBe("Plan zwei");

    const folder = await local.assets.createFolder({ folderName: "Upserts" });
    const made = await local.assets.upsert("remote-upserted", { fileName: "neu.txt", mimeType: "text/plain", body: Buffer.from("neu") });
    expect(made.created).toBe(true);
    const again = await local.assets.upsert("remote-upserted", { fileName: "neu-2.txt", mimeType: "text/plain", body: Buffer.from("neu zwei"), parentId: folder.id });
    expect(again.created).toBe(false);
    const upsertedOnA = (await (await assetsOnA("/remote-upserted")).json()) as { fileName: string; parentId: string; version: number };
    expect(upsertedOnA).toMatchObject({ fileName: "neu-2.txt", parentId: folder.id, version: again.asset.version });
    expect(again.asset).toMatchObject({ fileName: "neu-2.txt", parentId: folder.id });
  });

  it("keeps a remote asset's metadata and protection when the mirror takes it, and serves a protected one only to signed-in people", async () => {
    const made = await uploadToA("intern.txt", "Nur für das Team");
    const res = await assetsOnA(`/${made.id}`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ isProtected: true, metadata: { abteilung: "Empfang" } }) });
    expect(res.status).toBe(200);
    expect(await (await hook(assetEvent(made.id, "Created"))).json()).toMatchObject({ ok: true, written: 1 });
    const db = openStore(b.dataDir);
    try {
      expect(db.prepare("select is_protected, metadata from assets where id = ?").get(made.id)).toEqual({ is_protected: 1, metadata: '{"abteilung":"Empfang"}' });
    } finally {
      db.close();
    }
    expect((await fileOnB(made.id)).status).toBe(403);
    const signedIn = await fetch(`${b.url}/api/assets/${made.id}`, { headers: { cookie: admin } });
    expect(signedIn.status).toBe(200);
    expect(await signedIn.text()).toBe("Nur für das Team");
  });

  it("with Squidex down, asset writes are refused with a message and nothing is kept; the files are still served", async () => {
    await a.stop();
    const before = keptOnB(firstOnA.id)!;
    const renamed = await postForm(b, "/manage/squidex-assets", { intent: "rename", id: firstOnA.id, fileName: "neu.txt" }, admin);
    expect(renamed.status).toBe(503);
    expect(keptOnB(firstOnA.id)).toEqual(before);

    const form = new FormData();
    form.append("file", new Blob(["nie angekommen"], { type: "text/plain" }), "offline.txt");
    const upload = await fetch(`${b.url}/api/squidex/api/apps/${APP}/assets`, { method: "POST", headers: { cookie: admin, origin: b.url }, body: form });
    expect(upload.status).toBeGreaterThanOrEqual(502);
    expect(((await upload.json()) as { message: string }).message).toMatch(/cannot be reached/);
    const db = openStore(b.dataDir);
    try {
      expect(db.prepare("select count(*) as n from assets where file_name = 'offline.txt'").get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }

    // The store's own upload: 503 in words, and neither a row nor a file is left.
    const refused = await local.assets.upload({ id: "offline-file", fileName: "offline.txt", mimeType: "text/plain", body: Buffer.from("nie angekommen") }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ContentError);
    expect(refused).toMatchObject({ statusCode: 503, message: expect.stringMatching(/^The content service \(Squidex\) cannot be reached: nothing was saved/) });
    expect(await local.assets.get("offline-file")).toBeUndefined();
    expect(fs.existsSync(path.join(local.assets.dir, "offline-file"))).toBe(false);

    const file = await fileOnB(firstOnA.id);
    expect(file.status).toBe(200);
    expect(await file.text()).toBe("Anfahrt: Bus 100 bis Lindenstraße");
    expect((await hook(assetEvent(firstOnA.id))).status).toBe(503);
  });
});
