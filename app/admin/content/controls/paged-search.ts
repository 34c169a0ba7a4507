import { useEffect, useRef, useState } from "react";
import { http } from "~/lib/http";

/**
 * One paged search of a picker (items, files): the newest request wins (older ones are aborted),
 * "more" appends the next page, and a failure is a message in the editor's words (`failedText`),
 * or the server's own message when it sent one.
 */
export function usePagedSearch<T>(failedText: string) {
  const [found, setFound] = useState<{ items: T[]; total: number } | null>(null);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);

  /** Fetches `url` (a page starting at `skip`); resolves with that page's items, or undefined when it failed or was overtaken. */
  const load = async (url: string, skip: number): Promise<T[] | undefined> => {
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    setBusy(true);
    setFailed(null);
    try {
      const res = await http(url, { signal: controller.signal });
      const body = (await res.json().catch(() => ({}))) as { items?: T[]; total?: number; message?: string };
      if (!res.ok || !Array.isArray(body.items)) {
        setFailed(body.message ?? failedText);
        return undefined;
      }
      const items = body.items;
      setFound((prev) => ({ items: skip > 0 && prev ? [...prev.items, ...items] : items, total: body.total ?? items.length }));
      return items;
    } catch (error) {
      if ((error as Error).name !== "AbortError") setFailed(failedText);
      return undefined;
    } finally {
      if (abort.current === controller) setBusy(false);
    }
  };

  /** Forgets the results (and stops a search under way). */
  const clear = () => {
    abort.current?.abort();
    setFound(null);
    setBusy(false);
  };

  return { found, busy, failed, load, clear };
}
