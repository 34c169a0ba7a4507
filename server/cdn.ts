import type { Logger } from "../app/lib/logger.server";
import { http } from "../app/lib/http";

/**
 * Tells a CDN in front of the site what to forget: cacheable pages carry the names of what they read
 * (`Cache-Tag`, `Surrogate-Key`: schema names and "assets"), and a change here posts the tags it
 * touched to `CDN_PURGE_URL` — `{"tags": [...]}`, or `{"all": true}` — with `CDN_PURGE_TOKEN` as a
 * bearer token when set. Changes within half a second go out as one call; a failed call is logged
 * (the CDN's own `s-maxage` still bounds how stale it can be).
 */
export class CdnPurger {
  private pending = new Set<string>();
  private all = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly url: string,
    private readonly token: string | undefined,
    private readonly logger: Logger,
    private readonly delayMs = 500,
  ) {}

  purge(tags: ReadonlySet<string> | "all"): void {
    if (tags === "all") this.all = true;
    else for (const tag of tags) this.pending.add(tag);
    this.timer ??= setTimeout(() => void this.flush(), this.delayMs);
    this.timer.unref?.();
  }

  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.all && !this.pending.size) return;
    const body = this.all ? { all: true } : { tags: [...this.pending].sort() };
    this.all = false;
    this.pending = new Set();
    try {
      // A purge may be sent again: purging twice is purging.
      const res = await http(this.url, {
        method: "POST",
        idempotent: true,
        headers: this.token ? { authorization: `Bearer ${this.token}` } : {},
        json: body,
        timeoutMs: 10_000,
      });
      if (!res.ok) this.logger.warn({ status: res.status, purge: body }, "CDN purge refused");
    } catch (error) {
      this.logger.warn({ err: error, purge: body }, "CDN purge failed");
    }
  }
}
