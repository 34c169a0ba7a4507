import { useEffect } from "react";
import { createHttpClient, http } from "~/lib/http";
import { createValue, useValue } from "~/lib/value";

/**
 * The browser's view of the session (spec §4, §7): `GET /api/_auth/session` is fetched once per page
 * load, without retry, and auth is "ready" after its first answer (whatever it was). It is only
 * asked for when the `pn_editor` hint cookie says someone signed in here: visitors cost nothing.
 * The hint carries no rights; the HttpOnly session cookie does.
 */
export const EDITOR_HINT_COOKIE = "pn_editor";

export interface SessionUser {
  id: string;
  email: string;
  name: string;
  superuser: boolean;
  language: "de" | "en";
}
export interface AuthState {
  ready: boolean;
  user: SessionUser | null;
}

const session = createValue<AuthState>({ ready: false, user: null });
let started = false;
const set = session.set;

/** Whether the document's cookies carry the editor hint. */
export function hasEditorHint(cookie: string): boolean {
  return cookie.split(/;\s*/).some((part) => part.startsWith(`${EDITOR_HINT_COOKIE}=`));
}

/** Fetches the session once (no retry); failures are logged and leave the visitor signed out, ready. */
export async function loadSession(fetcher?: typeof fetch): Promise<AuthState> {
  if (started) return session.get();
  started = true;
  try {
    // §9: the session is asked once, never again on its own.
    const client = fetcher ? createHttpClient({ fetch: fetcher }) : http;
    const response = await client("/api/_auth/session", { retry: false });
    const body = (response.ok ? await response.json() : {}) as { user?: SessionUser };
    set({ ready: true, user: body.user ?? null });
  } catch (error) {
    // The logger loads only when there is something to say.
    const { log } = await import("~/lib/log");
    log.error("Error Fetching Session", error);
    set({ ready: true, user: null });
  }
  return session.get();
}

/** For tests: forget the fetched session. */
export function resetSession() {
  started = false;
  set({ ready: false, user: null });
}

/** The session in a component: fetched after hydration when the hint is there, else ready and empty. */
export function useAuthSession(): AuthState {
  useEffect(() => {
    if (hasEditorHint(document.cookie)) void loadSession();
    else if (!session.get().ready) set({ ready: true, user: null });
  }, []);
  return useValue(session);
}
