import { useCallback, useEffect, useRef } from "react";
import { useFetcher } from "react-router";

/**
 * Posts to the current route's action through a fetcher and resolves with its answer once the
 * fetcher is idle again (after the loaders revalidated), for forms whose submit handler awaits the
 * server (EngineForm's `onSubmit`). The fetcher itself is returned for other forms on the screen.
 */
export function useActionCall<T>() {
  const fetcher = useFetcher<T>();
  const waiting = useRef<((answer: T | undefined) => void) | null>(null);
  useEffect(() => {
    if (fetcher.state !== "idle" || !waiting.current) return;
    const resolve = waiting.current;
    waiting.current = null;
    resolve(fetcher.data as T | undefined);
  }, [fetcher.state, fetcher.data]);
  const { submit } = fetcher;
  const call = useCallback(
    (body: Record<string, string>) =>
      new Promise<T | undefined>((resolve) => {
        waiting.current = resolve;
        void submit(body, { method: "post" });
      }),
    [submit],
  );
  return { call, fetcher };
}
