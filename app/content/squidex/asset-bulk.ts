import { ContentError, badRequest, contentErrorOf } from "../errors";
import type { ContentStore } from "../store";
import type { Principal } from "../policy";
import { isPlainObject } from "../validate";

/**
 * Squidex's asset bulk jobs, `POST api/apps/{app}/assets/bulk` with `{"jobs": [...],
 * "continueOnError"?: boolean}`: Annotate (fileName, slug, tags, metadata, isProtected), Move
 * (parentId) and Delete, each on one asset by `id`, with its `expectedVersion` (-2 or none: any).
 *
 * As in Squidex (AssetsBulkUpdateCommandMiddleware) the jobs run one by one, each as the single
 * write it names (AssetStore: the policy asked, audited, sent to a remote Squidex first when the
 * site runs on one), and a failed job undoes none of the others: files and a remote Squidex have
 * no transaction to roll back. `continueOnError: false` stops at the first failed job instead;
 * the ones after it are reported as not run. The answer is one result per job, in order, shaped
 * as the content bulk's (bulk.ts): `{jobIndex, id, error?}`.
 */

const JOB_TYPES = ["Annotate", "Move", "Delete"] as const;
type JobType = (typeof JOB_TYPES)[number];
/** Each job is a write of its own (and a call to Squidex in remote mode): fewer than content bulk's. */
export const MAX_ASSET_BULK_JOBS = 200;

interface AssetJob {
  type: JobType;
  id: string;
  fileName?: unknown;
  slug?: unknown;
  tags?: unknown;
  metadata?: unknown;
  isProtected?: unknown;
  parentId?: string | null;
  expectedVersion?: number;
}

export interface AssetBulkResult {
  jobIndex: number;
  id: string;
  error?: ReturnType<ContentError["toJSON"]>;
}

/** The request checked as a whole before any job runs: its shape, the job types, ids and versions. */
function parseAssetBulk(body: unknown): { jobs: AssetJob[]; stopOnError: boolean } {
  if (!isPlainObject(body) || !Array.isArray(body.jobs)) throw badRequest('Send {"jobs": [{"type": "Annotate", "id": "<asset id>", "fileName": "…"}]} with one entry per job.');
  if (body.jobs.length > MAX_ASSET_BULK_JOBS) throw badRequest(`Send at most ${MAX_ASSET_BULK_JOBS} asset jobs per request (got ${body.jobs.length}).`);
  if (body.continueOnError !== undefined && body.continueOnError !== null && typeof body.continueOnError !== "boolean") throw badRequest('"continueOnError" must be true or false.');
  const jobs = body.jobs.map((job, i): AssetJob => {
    if (!isPlainObject(job)) throw badRequest(`jobs[${i}] must be an object.`);
    const type = JOB_TYPES.find((t) => typeof job.type === "string" && t.toLowerCase() === job.type.toLowerCase());
    if (!type) throw badRequest(`jobs[${i}].type must be one of ${JOB_TYPES.join(", ")} (got ${JSON.stringify(job.type ?? null)?.slice(0, 50)}).`);
    if (typeof job.id !== "string" || job.id === "") throw badRequest(`jobs[${i}] (${type}) needs the asset's "id".`);
    const version = job.expectedVersion;
    if (version !== undefined && version !== null && !Number.isSafeInteger(version)) throw badRequest(`jobs[${i}].expectedVersion must be a whole number.`);
    const parentId = job.parentId ?? null;
    if (parentId !== null && typeof parentId !== "string") throw badRequest(`jobs[${i}].parentId must be a folder id (or null for the root).`);
    if (job.permanent !== undefined && job.permanent !== null && typeof job.permanent !== "boolean") throw badRequest(`jobs[${i}].permanent must be true or false.`);
    return {
      type,
      id: job.id,
      ...(type === "Annotate" ? { fileName: job.fileName, slug: job.slug, tags: job.tags, metadata: job.metadata, isProtected: job.isProtected } : {}),
      ...(type === "Move" ? { parentId } : {}),
      // Squidex sends -2 for "any version".
      ...(typeof version === "number" && version >= 0 ? { expectedVersion: version } : {}),
    };
  });
  // Squidex's default: every job on its own. Only an explicit false stops at a failure.
  return { jobs, stopOnError: body.continueOnError === false };
}

/**
 * One job as the single write it names. A Delete is always for good (`permanent` changes nothing):
 * this store keeps no deleted assets.
 */
async function runJob(store: ContentStore, job: AssetJob, by: Principal): Promise<void> {
  const opts = { ...(job.expectedVersion !== undefined ? { expectedVersion: job.expectedVersion } : {}), by };
  switch (job.type) {
    case "Annotate":
      await store.assets.annotate(job.id, { fileName: job.fileName, slug: job.slug, tags: job.tags, metadata: job.metadata, isProtected: job.isProtected }, opts);
      return;
    case "Move":
      await store.assets.move(job.id, job.parentId ?? "", opts);
      return;
    case "Delete":
      await store.assets.delete(job.id, opts);
      return;
  }
}

export async function assetBulk(body: unknown, by: Principal, store: ContentStore): Promise<AssetBulkResult[]> {
  const { jobs, stopOnError } = parseAssetBulk(body);
  const results: AssetBulkResult[] = [];
  let failed: number | undefined;
  for (const [jobIndex, job] of jobs.entries()) {
    if (failed !== undefined) {
      const error = new ContentError(409, `Not run: job ${failed} failed, and with continueOnError false the jobs after a failed one are not run.`, undefined, "OBJECT_CONFLICT");
      results.push({ jobIndex, id: job.id, error: error.toJSON() });
      continue;
    }
    try {
      await runJob(store, job, by);
      results.push({ jobIndex, id: job.id });
    } catch (e) {
      // A job's own failure (refused, not found, a conflict, a busy store) is its result; anything else is a fault of this service.
      const known = contentErrorOf(e);
      if (!known) throw e;
      results.push({ jobIndex, id: job.id, error: known.toJSON() });
      if (stopOnError) failed = jobIndex;
    }
  }
  return results;
}
