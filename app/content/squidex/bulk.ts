import { ContentError, badRequest, contentErrorOf } from "../errors";
import { BatchItemError, type ContentStore } from "../store";
import { isPlainObject } from "../validate";
import type { Principal } from "../policy";

/**
 * Squidex bulk jobs, `POST api/content/{app}/{schema}/bulk`: Upsert, Create, Update, Patch,
 * ChangeStatus and Delete, all or nothing by default, one by one with `continueOnError`.
 */

const BULK_TYPES = ["Upsert", "Create", "Update", "Patch", "ChangeStatus", "Delete"] as const;
type BulkType = (typeof BULK_TYPES)[number];
export const MAX_BULK_JOBS = 1000;

interface BulkJob {
  type: BulkType;
  id?: string;
  data?: unknown;
  status?: string;
  expectedVersion?: number;
  patch?: boolean;
}

interface BulkResult {
  jobIndex: number;
  id?: string;
  contentId?: string;
  error?: ReturnType<ContentError["toJSON"]>;
}

function parseBulk(body: unknown): { jobs: BulkJob[]; continueOnError: boolean; publish: boolean } {
  if (!isPlainObject(body) || !Array.isArray(body.jobs)) throw badRequest('Send {"jobs": [...]} with one entry per job.');
  if (body.jobs.length > MAX_BULK_JOBS) throw badRequest(`Send at most ${MAX_BULK_JOBS} jobs per request (got ${body.jobs.length}).`);
  const jobs = body.jobs.map((job, i): BulkJob => {
    if (!isPlainObject(job)) throw badRequest(`jobs[${i}] must be an object.`);
    const type = BULK_TYPES.find((t) => t.toLowerCase() === String(job.type).toLowerCase());
    if (!type) throw badRequest(`jobs[${i}].type must be one of ${BULK_TYPES.join(", ")}.`);
    if (job.id !== undefined && typeof job.id !== "string") throw badRequest(`jobs[${i}].id must be a string.`);
    if (job.status !== undefined && typeof job.status !== "string") throw badRequest(`jobs[${i}].status must be a string.`);
    const version = job.expectedVersion;
    if (version !== undefined && version !== null && !Number.isInteger(version)) throw badRequest(`jobs[${i}].expectedVersion must be a whole number.`);
    if (type !== "Create" && type !== "Upsert" && job.id === undefined) throw badRequest(`jobs[${i}] (${type}) needs an id.`);
    if (type === "ChangeStatus" && job.status === undefined) throw badRequest(`jobs[${i}] (ChangeStatus) needs a status.`);
    // Squidex sends -2 for "any version".
    const expectedVersion = typeof version === "number" && version >= 0 ? version : undefined;
    return { type, id: job.id as string | undefined, data: job.data, status: job.status as string | undefined, expectedVersion, patch: job.patch === true };
  });
  return { jobs, continueOnError: body.continueOnError === true, publish: body.publish === true };
}

/**
 * Runs one job. `present` (when given) holds the Upsert ids that name an item: kept up to date here
 * as jobs create and delete, so the bulk run never asks the database again per job.
 */
async function runJob(store: ContentStore, schema: string, job: BulkJob, publishAll: boolean, by: Principal, present?: Set<string>): Promise<string> {
  const opts = { expectedVersion: job.expectedVersion, by };
  const publish = job.status === "Published" || (job.status === undefined && publishAll);
  switch (job.type) {
    case "Create": {
      // A taken id is a 409 from the insert itself (ON CONFLICT DO NOTHING: the transaction goes on).
      const id = (await store.create(schema, job.data, { id: job.id, publish, by })).id;
      present?.add(id);
      return id;
    }
    case "Upsert": {
      const existing = job.id === undefined ? undefined : await store.get(schema, job.id, { unpublished: true });
      if (!existing) {
        const id = (await store.create(schema, job.data, { id: job.id, publish, by })).id;
        present?.add(id);
        return id;
      }
      const item = job.patch ? await store.patch(schema, existing.id, job.data, opts) : await store.update(schema, existing.id, job.data, opts);
      if (job.status && job.status !== item.status) await store.changeStatus(schema, item.id, job.status, { by });
      return item.id;
    }
    case "Update":
      return (await store.update(schema, job.id!, job.data, opts)).id;
    case "Patch":
      return (await store.patch(schema, job.id!, job.data, opts)).id;
    case "ChangeStatus":
      return (await store.changeStatus(schema, job.id!, job.status!, opts)).id;
    case "Delete":
      await store.delete(schema, job.id!, opts);
      present?.delete(job.id!);
      return job.id!;
  }
}

/** Which of the jobs' Upsert ids name an item of the schema now: one lookup for the whole request. */
async function presentUpsertIds(store: ContentStore, schema: string, jobs: readonly BulkJob[]): Promise<Set<string>> {
  const ids = [...new Set(jobs.flatMap((job) => (job.type === "Upsert" && job.id !== undefined ? [job.id] : [])))];
  return ids.length ? store.existingIds(schema, ids) : new Set();
}

/**
 * How many jobs from `start` on simply create an item: Create jobs, and Upsert jobs whose id is new
 * (at most 1 000 at a time). `present`: the Upsert ids that name an item now (presentUpsertIds).
 * It used to ask the database for the next 1 000 jobs' ids at every job: 500 updates made 500
 * lookups of up to 500 ids each (5.5 s at 100 000 items).
 */
function createRun(jobs: readonly BulkJob[], start: number, present: ReadonlySet<string>): number {
  let end = start;
  while (end < jobs.length && end - start < 1000 && (jobs[end]!.type === "Create" || jobs[end]!.type === "Upsert")) end++;
  // An Upsert of an id that exists, or that an earlier job of the run creates, updates: the run ends before it.
  const seen = new Set<string>();
  for (let i = start; i < end; i++) {
    const { type, id } = jobs[i]!;
    if (type === "Upsert" && id !== undefined && (present.has(id) || seen.has(id))) return i - start;
    if (id !== undefined) seen.add(id);
  }
  return end - start;
}

/**
 * Squidex bulk jobs. By default all jobs run in one transaction: a failing job leaves nothing
 * written, and every job is reported as not applied (a busy database fails the whole request with a
 * 503 and Retry-After: nothing was applied, the same request may be sent again). With
 * `continueOnError` each job stands alone.
 */
export async function bulk(schema: string, body: unknown, by: Principal, store: ContentStore): Promise<BulkResult[]> {
  const { jobs, continueOnError, publish } = parseBulk(body);
  const failure = (e: unknown) => {
    if (e instanceof ContentError) return e.toJSON();
    throw e;
  };
  if (continueOnError) {
    const results: BulkResult[] = [];
    for (const [jobIndex, job] of jobs.entries()) {
      try {
        const id = await runJob(store, schema, job, publish, by);
        results.push({ jobIndex, id, contentId: id });
      } catch (e) {
        // A busy database refused this job alone: its own 503, the other jobs stand.
        const known = contentErrorOf(e);
        if (!known) throw e;
        results.push({ jobIndex, ...(job.id ? { id: job.id, contentId: job.id } : {}), error: known.toJSON() });
      }
    }
    return results;
  }
  let failed: { index: number; error: ReturnType<ContentError["toJSON"]> } | undefined;
  const ids: string[] = [];
  const createJob = (job: BulkJob) => ({ data: job.data, id: job.id, publish: job.status === "Published" || (job.status === undefined && publish) });
  // Only new items: one createMany, atomic by itself (on PostgreSQL one statement, no transaction).
  if (jobs.length > 1 && jobs.every((job) => job.type === "Create" || job.type === "Upsert") && createRun(jobs, 0, await presentUpsertIds(store, schema, jobs)) === jobs.length) {
    try {
      for (const item of await store.createMany(schema, jobs.map(createJob), { by })) ids.push(item.id);
    } catch (e) {
      if (!(e instanceof BatchItemError)) throw e;
      failed = { index: e.index, error: failure(e.error) };
    }
    return bulkResults(jobs, ids, failed);
  }
  try {
    await store.transaction(async (tx) => {
      const present = await presentUpsertIds(tx, schema, jobs);
      for (let index = 0; index < jobs.length; ) {
        // A run of creates goes in as one batch (multi-row inserts); the rest one job at a time.
        const creates = createRun(jobs, index, present);
        if (creates > 1) {
          try {
            const items = await tx.createMany(schema, jobs.slice(index, index + creates).map(createJob), { by });
            for (const item of items) {
              ids.push(item.id);
              present.add(item.id);
            }
          } catch (e) {
            if (e instanceof BatchItemError) failed = { index: index + e.index, error: failure(e.error) };
            throw e;
          }
          index += creates;
          continue;
        }
        try {
          ids.push(await runJob(tx, schema, jobs[index]!, publish, by, present));
        } catch (e) {
          failed = { index, error: failure(e) };
          throw e;
        }
        index++;
      }
    });
  } catch (e) {
    if (!failed) throw e;
  }
  return bulkResults(jobs, ids, failed);
}

/** Squidex's per-job answers: without continueOnError, when one job failed none was applied. */
function bulkResults(jobs: readonly BulkJob[], ids: readonly string[], failed: { index: number; error: ReturnType<ContentError["toJSON"]> } | undefined): BulkResult[] {
  return jobs.map((job, jobIndex) => {
    const id = ids[jobIndex] ?? job.id;
    const base = { jobIndex, ...(id ? { id, contentId: id } : {}) };
    if (!failed) return base;
    if (jobIndex === failed.index) return { ...base, error: failed.error };
    const message = `Not applied: job ${failed.index} failed, and without continueOnError all jobs are applied together or not at all.`;
    return { ...base, error: new ContentError(409, message, undefined, "OBJECT_CONFLICT").toJSON() };
  });
}
