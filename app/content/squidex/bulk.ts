import { sql } from "kysely";
import { ContentError, badRequest, contentErrorOf, notFound } from "../errors";
import { parseQuery } from "../query";
import { BatchItemError, type ContentStore } from "../store";
import type { ContentQuery } from "../types";
import { isPlainObject } from "../validate";
import { authorize, type Principal } from "../policy";
import { parseDueTime } from "./respond";

/**
 * Squidex bulk jobs, `POST api/content/{app}/{schema}/bulk` and app-wide `POST api/content/{app}/bulk`
 * (each job names its `schema`): Upsert, Create, Update, Patch, Validate, EnrichDefaults,
 * ChangeStatus and Delete, for an item by `id` or for the items a `query` selects. As in Squidex
 * each job stands alone by default (ContentsBulkUpdateCommandMiddleware runs every job and reports
 * each one's error); `continueOnError: false` asks for all or nothing in one transaction instead.
 * `POST …/{schema}/import` is a list of Create jobs on the same path. See decision 0028.
 */

const BULK_TYPES = ["Upsert", "Create", "Update", "Patch", "Validate", "EnrichDefaults", "ChangeStatus", "Delete"] as const;
type BulkType = (typeof BULK_TYPES)[number];
export const MAX_BULK_JOBS = 1000;
/** At most this many items one query job may select (its `expectedCount`, 1 unless given, as in Squidex). */
export const MAX_QUERY_JOB_ITEMS = 200;

interface BulkJob {
  type: BulkType;
  id?: string;
  data?: unknown;
  status?: string;
  /** ChangeStatus: when to make the change (Squidex's dueTime); unset: now. */
  dueTime?: Date;
  expectedVersion?: number;
  patch?: boolean;
  schema?: string;
  query?: ContentQuery;
  expectedCount: number;
}

/** One job applied to one item: a job by id is one task, a query job one per item it selects. */
interface Task {
  jobIndex: number;
  job: BulkJob;
  schema: string;
  /** Unset: a new item (Create, or an Upsert whose query found nothing), its id made on insert. */
  id?: string;
  /** Why the task cannot run (no schema, the query failed or selected too many). */
  error?: ContentError;
}

interface BulkResult {
  jobIndex: number;
  id?: string;
  contentId?: string;
  error?: ReturnType<ContentError["toJSON"]>;
}

function parseBulk(body: unknown): { jobs: BulkJob[]; atomic: boolean; publish: boolean } {
  if (!isPlainObject(body) || !Array.isArray(body.jobs)) throw badRequest('Send {"jobs": [...]} with one entry per job.');
  if (body.jobs.length > MAX_BULK_JOBS) throw badRequest(`Send at most ${MAX_BULK_JOBS} jobs per request (got ${body.jobs.length}).`);
  if (body.continueOnError !== undefined && body.continueOnError !== null && typeof body.continueOnError !== "boolean")
    throw badRequest('"continueOnError" must be true or false.');
  const jobs = body.jobs.map((job, i): BulkJob => {
    if (!isPlainObject(job)) throw badRequest(`jobs[${i}] must be an object.`);
    const type = BULK_TYPES.find((t) => t.toLowerCase() === String(job.type).toLowerCase());
    if (!type) throw badRequest(`jobs[${i}].type must be one of ${BULK_TYPES.join(", ")}.`);
    const id = job.id ?? undefined;
    if (id !== undefined && typeof id !== "string") throw badRequest(`jobs[${i}].id must be a string.`);
    const status = job.status ?? undefined;
    if (status !== undefined && typeof status !== "string") throw badRequest(`jobs[${i}].status must be a string.`);
    const schema = job.schema ?? undefined;
    if (schema !== undefined && (typeof schema !== "string" || schema === "")) throw badRequest(`jobs[${i}].schema must be a schema name.`);
    const version = job.expectedVersion;
    if (version !== undefined && version !== null && !Number.isInteger(version)) throw badRequest(`jobs[${i}].expectedVersion must be a whole number.`);
    let query: ContentQuery | undefined;
    if (job.query !== undefined && job.query !== null) {
      if (!isPlainObject(job.query)) throw badRequest(`jobs[${i}].query must be a Squidex query object: {"filter": …, "sort": […], "skip": n}.`);
      try {
        query = parseQuery(job.query);
      } catch (e) {
        if (e instanceof ContentError && e.statusCode === 400) throw new ContentError(400, `jobs[${i}].query: ${e.message}`, e.details);
        throw e;
      }
    }
    const count = job.expectedCount ?? 1;
    if (typeof count !== "number" || !Number.isInteger(count) || count < 1) throw badRequest(`jobs[${i}].expectedCount must be a whole number from 1.`);
    if (count > MAX_QUERY_JOB_ITEMS)
      throw badRequest(`jobs[${i}].expectedCount is ${count}: a query job changes at most ${MAX_QUERY_JOB_ITEMS} items. Split it into several jobs (the query's skip) or requests.`);
    if (type !== "Create" && type !== "Upsert" && id === undefined && query === undefined) throw badRequest(`jobs[${i}] (${type}) needs an id or a query.`);
    if (type === "ChangeStatus" && status === undefined) throw badRequest(`jobs[${i}] (ChangeStatus) needs a status.`);
    const dueTime = parseDueTime(job.dueTime, `jobs[${i}].dueTime`);
    if (dueTime && dueTime.getTime() <= Date.now()) throw badRequest(`jobs[${i}].dueTime ${dueTime.toISOString()} has passed; give a time in the future, or none to change the status now.`);
    // Squidex sends -2 for "any version".
    const expectedVersion = typeof version === "number" && version >= 0 ? version : undefined;
    return { type, id, data: job.data, status, ...(dueTime && type === "ChangeStatus" ? { dueTime } : {}), expectedVersion, patch: job.patch === true, schema, query, expectedCount: count };
  });
  // Squidex's default: every job on its own. Only an explicit false keeps them together.
  return { jobs, atomic: body.continueOnError === false, publish: body.publish === true };
}

/**
 * The jobs as tasks: a job by id (or a new item) is one; a query job one per item its query selects
 * now, among drafts too (a read of drafts, asked of the policy). A query that selects more than the
 * job's expectedCount fails that job, as in Squidex; more than MAX_BULK_JOBS tasks in all is a 400
 * for the request before anything is written.
 */
async function tasksOf(store: ContentStore, jobs: readonly BulkJob[], fallbackSchema: string | undefined, by: Principal): Promise<Task[]> {
  const tasks: Task[] = [];
  for (const [jobIndex, job] of jobs.entries()) {
    const schema = job.schema ?? fallbackSchema;
    if (schema === undefined) {
      tasks.push({ jobIndex, job, schema: "", error: notFound('The job names no schema: give it "schema", or send the request to …/{schema}/bulk or with ?schema=.') });
      continue;
    }
    if (job.id !== undefined || job.query === undefined) {
      tasks.push({ jobIndex, job, schema, ...(job.id !== undefined ? { id: job.id } : {}) });
      continue;
    }
    try {
      authorize(by, "readDraft", schema);
      const found = await store.query(schema, { ...job.query, take: job.expectedCount }, { unpublished: true });
      if (found.total > job.expectedCount)
        throw badRequest(`The query matches ${found.total} items, more than the job's expectedCount (${job.expectedCount}): narrow the query, or raise expectedCount (at most ${MAX_QUERY_JOB_ITEMS}).`);
      if (!found.items.length) {
        // Squidex: an Upsert that finds nothing creates; the other jobs have nothing to work on.
        if (job.type === "Upsert") tasks.push({ jobIndex, job, schema });
        else tasks.push({ jobIndex, job, schema, error: notFound("No content item matches the job's query.") });
        continue;
      }
      for (const item of found.items) tasks.push({ jobIndex, job, schema, id: item.id });
    } catch (e) {
      const known = contentErrorOf(e);
      if (!known) throw e;
      tasks.push({ jobIndex, job, schema, error: known });
    }
  }
  if (tasks.length > MAX_BULK_JOBS)
    throw badRequest(`The jobs apply to ${tasks.length} items in all, more than ${MAX_BULK_JOBS} per request: send fewer jobs or narrower queries.`);
  return tasks;
}

const presentKey = (schema: string, id: string) => `${schema}/${id}`;

/**
 * Runs one task. `present` (when given) holds the Upsert ids that name an item: kept up to date here
 * as tasks create and delete, so the bulk run never asks the database again per job.
 */
async function runTask(store: ContentStore, task: Task, publishAll: boolean, by: Principal, present?: Set<string>): Promise<string> {
  const { job, schema } = task;
  const id = task.id;
  const opts = { expectedVersion: job.expectedVersion, by };
  const publish = job.status === "Published" || (job.status === undefined && publishAll);
  switch (job.type) {
    case "Create": {
      // A taken id is a 409 from the insert itself (ON CONFLICT DO NOTHING: the transaction goes on).
      const created = (await store.create(schema, job.data, { id, publish, by })).id;
      present?.add(presentKey(schema, created));
      return created;
    }
    case "Upsert": {
      const existing = id === undefined ? undefined : await store.get(schema, id, { unpublished: true });
      if (!existing) {
        const created = (await store.create(schema, job.data, { id, publish, by })).id;
        present?.add(presentKey(schema, created));
        return created;
      }
      const item = job.patch ? await store.patch(schema, existing.id, job.data, opts) : await store.update(schema, existing.id, job.data, opts);
      if (job.status && job.status !== item.status) await store.changeStatus(schema, item.id, job.status, { by });
      return item.id;
    }
    case "Update":
      return (await store.update(schema, id!, job.data, opts)).id;
    case "Patch":
      return (await store.patch(schema, id!, job.data, opts)).id;
    case "Validate":
      // Writes nothing: the item's current data against its schema, read as a draft (Squidex's ValidateContent).
      authorize(by, "readDraft", schema);
      await store.checkValidity(schema, id!, { unpublished: true });
      return id!;
    case "EnrichDefaults":
      return (await store.enrichDefaults(schema, id!, opts)).id;
    case "ChangeStatus":
      if (job.dueTime) return (await store.scheduleStatus(schema, id!, job.status!, job.dueTime, opts)).id;
      return (await store.changeStatus(schema, id!, job.status!, opts)).id;
    case "Delete":
      await store.delete(schema, id!, opts);
      present?.delete(presentKey(schema, id!));
      return id!;
  }
}

/** Which of the tasks' Upsert ids name an item of their schema now: one lookup per schema for the whole request. */
async function presentUpsertIds(store: ContentStore, tasks: readonly Task[]): Promise<Set<string>> {
  const bySchema = new Map<string, Set<string>>();
  for (const task of tasks) {
    if (task.job.type !== "Upsert" || task.id === undefined || task.error) continue;
    let ids = bySchema.get(task.schema);
    if (!ids) bySchema.set(task.schema, (ids = new Set()));
    ids.add(task.id);
  }
  const present = new Set<string>();
  for (const [schema, ids] of bySchema) {
    if (!(await store.getSchema(schema))) continue;
    for (const id of await store.existingIds(schema, [...ids])) present.add(presentKey(schema, id));
  }
  return present;
}

/**
 * How many tasks from `start` on simply create an item of one schema: Create tasks, and Upsert tasks
 * whose id is new (at most 1 000 at a time). `present`: the Upsert ids that name an item now
 * (presentUpsertIds). It used to ask the database for the next 1 000 jobs' ids at every job: 500
 * updates made 500 lookups of up to 500 ids each (5.5 s at 100 000 items).
 */
function createRun(tasks: readonly Task[], start: number, present: ReadonlySet<string>): number {
  const schema = tasks[start]?.schema;
  let end = start;
  while (end < tasks.length && end - start < 1000) {
    const task = tasks[end]!;
    if (task.error || task.schema !== schema || (task.job.type !== "Create" && task.job.type !== "Upsert")) break;
    end++;
  }
  // An Upsert of an id that exists, or that an earlier task of the run creates, updates: the run ends before it.
  const seen = new Set<string>();
  for (let i = start; i < end; i++) {
    const { job, id } = tasks[i]!;
    if (job.type === "Upsert" && id !== undefined && (present.has(presentKey(schema!, id)) || seen.has(id))) return i - start;
    if (id !== undefined) seen.add(id);
  }
  return end - start;
}

const createItem = (task: Task, publishAll: boolean) => ({
  data: task.job.data,
  id: task.id,
  publish: task.job.status === "Published" || (task.job.status === undefined && publishAll),
});

/**
 * Squidex bulk jobs. By default each job stands alone, as in Squidex: every job runs, a failing one
 * is reported with its error and the others are kept (each to a savepoint of one transaction; runs
 * of creates still go in as one batch, and only when the batch fails are its jobs run one at a
 * time). With `continueOnError: false` all jobs
 * run in one transaction: a failing job leaves nothing written, and every job is reported as not
 * applied (a busy database fails the whole request with a 503 and Retry-After: nothing was applied,
 * the same request may be sent again). `fallbackSchema`: the schema of the route, or the app-wide
 * route's ?schema=; a job's own `schema` wins.
 */
export async function bulk(fallbackSchema: string | undefined, body: unknown, by: Principal, store: ContentStore): Promise<BulkResult[]> {
  const { jobs, atomic, publish } = parseBulk(body);
  // A remote Squidex keeps no transaction across its calls: all or nothing cannot be promised there.
  if (atomic && store.upstream)
    throw badRequest('This site runs on a remote Squidex, where jobs cannot be applied all or nothing: send "continueOnError": true (each job on its own), or send the bulk to Squidex itself.');
  return atomic ? allOrNothing(store, jobs, fallbackSchema, publish, by) : oneByOne(store, jobs, fallbackSchema, publish, by);
}

/**
 * Squidex's import (`POST …/{schema}/import`, obsolete there in favour of bulk): `{"datas": [data,
 * …], "publish"?: boolean}` is a Create job per entry, run as bulk jobs run by default (each on its
 * own), so every item is checked, authorized and audited as any create. `doNotScript` and
 * `optimizeValidation` change nothing here (no scripts; every item is validated in full).
 */
export async function importItems(schema: string, body: unknown, by: Principal, store: ContentStore): Promise<BulkResult[]> {
  if (!isPlainObject(body) || !Array.isArray(body.datas)) throw badRequest('Send {"datas": [{"field": {"iv": value}}, …], "publish": false}: one entry per item to create.');
  if (body.publish !== undefined && body.publish !== null && typeof body.publish !== "boolean") throw badRequest('"publish" must be true or false.');
  const status = body.publish === true ? { status: "Published" } : {};
  return bulk(schema, { jobs: body.datas.map((data) => ({ type: "Create", data, ...status })) }, by, store);
}

const resultOf = (task: Task, id: string | undefined, error?: ContentError): BulkResult => ({
  jobIndex: task.jobIndex,
  ...(id ? { id, contentId: id } : {}),
  ...(error ? { error: error.toJSON() } : {}),
});

/**
 * Each task on its own: its error is its own, the others stand. They run in one transaction with a
 * savepoint per task (a failing task is rolled back to it alone): one commit for the request, so a
 * bulk of 500 updates costs what it cost as one transaction. A busy database (no job's fault) fails
 * the whole request with a 503: nothing was applied, the same request may be sent again.
 */
async function oneByOne(store: ContentStore, jobs: readonly BulkJob[], fallbackSchema: string | undefined, publish: boolean, by: Principal): Promise<BulkResult[]> {
  // On a remote Squidex each job is its own write there, kept here once Squidex took it: no local
  // transaction is held open while Squidex answers (on SQLite it would stall every reader).
  if (store.upstream)
    return eachOwn(store, jobs, fallbackSchema, publish, by, false, async (fn) => {
      try {
        return { value: await fn() };
      } catch (e) {
        return { error: jobErrorOf(e) };
      }
    });
  return store.transaction(async (tx) => {
    let savepoints = 0;
    /** Runs `fn` to its savepoint: kept, or rolled back alone with its error. */
    const own: Own = async (fn) => {
      const name = sql.id(`bulk_job_${savepoints++}`);
      await sql`savepoint ${name}`.execute(tx.db);
      try {
        const value = await fn();
        await sql`release savepoint ${name}`.execute(tx.db);
        return { value };
      } catch (e) {
        const inner = jobErrorOf(e);
        await sql`rollback to savepoint ${name}`.execute(tx.db);
        await sql`release savepoint ${name}`.execute(tx.db);
        return { error: inner };
      }
    };
    return eachOwn(tx, jobs, fallbackSchema, publish, by, true, own);
  });
}

/** A job's own failure (a ContentError, also inside a batch's error); anything else is thrown on. */
function jobErrorOf(e: unknown): ContentError {
  const inner = e instanceof BatchItemError ? e.error : e;
  if (!(inner instanceof ContentError)) throw inner;
  return inner;
}

type Own = <T>(fn: () => Promise<T>) => Promise<{ value: T } | { error: ContentError }>;

/**
 * The jobs, each through `own` (which keeps it or reports its error). With `batches`, a run of
 * creates goes in as one batch first; without (a remote Squidex, where a batch failing half-way has
 * made some of its items there), every job goes alone.
 */
async function eachOwn(tx: ContentStore, jobs: readonly BulkJob[], fallbackSchema: string | undefined, publish: boolean, by: Principal, batches: boolean, own: Own): Promise<BulkResult[]> {
  const tasks = await tasksOf(tx, jobs, fallbackSchema, by);
  const present = await presentUpsertIds(tx, tasks);
  const results: BulkResult[] = [];
  const alone = async (task: Task) => {
    const done = await own(() => runTask(tx, task, publish, by, present));
    results.push("value" in done ? resultOf(task, done.value) : resultOf(task, task.id, done.error));
  };
  for (let index = 0; index < tasks.length; ) {
    const task = tasks[index]!;
    if (task.error) {
      results.push(resultOf(task, task.id, task.error));
      index++;
      continue;
    }
    // A run of creates goes in as one batch (multi-row inserts); when it fails, its tasks run one by one.
    const creates = batches ? createRun(tasks, index, present) : 1;
    if (creates > 1) {
      const run = tasks.slice(index, index + creates);
      const batch = await own(() => tx.createMany(task.schema, run.map((t) => createItem(t, publish)), { by }));
      if ("value" in batch) {
        batch.value.forEach((item, k) => {
          present.add(presentKey(task.schema, item.id));
          results.push(resultOf(run[k]!, item.id));
        });
      } else for (const t of run) await alone(t);
      index += creates;
      continue;
    }
    await alone(task);
    index++;
  }
  return results;
}

/** All tasks in one transaction: one failure and nothing is written. */
async function allOrNothing(store: ContentStore, jobs: readonly BulkJob[], fallbackSchema: string | undefined, publish: boolean, by: Principal): Promise<BulkResult[]> {
  // A job's own failure; anything else (a busy database) fails the whole request.
  const failure = (e: unknown) => {
    const inner = e instanceof BatchItemError ? e.error : e;
    if (inner instanceof ContentError) return inner;
    throw inner;
  };
  let failed: { index: number; error: ContentError } | undefined;
  const ids: Array<string | undefined> = [];
  let tasks: Task[] = [];
  try {
    await store.transaction(async (tx) => {
      tasks = await tasksOf(tx, jobs, fallbackSchema, by);
      const present = await presentUpsertIds(tx, tasks);
      for (let index = 0; index < tasks.length; ) {
        const task = tasks[index]!;
        if (task.error) {
          failed = { index, error: task.error };
          throw task.error;
        }
        // A run of creates goes in as one batch (multi-row inserts); the rest one task at a time.
        const creates = createRun(tasks, index, present);
        if (creates > 1) {
          try {
            const items = await tx.createMany(task.schema, tasks.slice(index, index + creates).map((t) => createItem(t, publish)), { by });
            for (const item of items) {
              ids.push(item.id);
              present.add(presentKey(task.schema, item.id));
            }
          } catch (e) {
            failed = { index: e instanceof BatchItemError ? index + e.index : index, error: failure(e) };
            throw e;
          }
          index += creates;
          continue;
        }
        try {
          ids.push(await runTask(tx, task, publish, by, present));
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
  return tasks.map((task, index) => {
    const id = ids[index] ?? task.id;
    if (!failed) return resultOf(task, id);
    if (index === failed.index) return resultOf(task, id, failed.error);
    const message = `Not applied: job ${tasks[failed.index]!.jobIndex} failed, and with continueOnError false all jobs are applied together or not at all.`;
    return resultOf(task, id, new ContentError(409, message, undefined, "OBJECT_CONFLICT"));
  });
}
