import { data, redirect, type AppLoadContext } from "react-router";
import { jsonResponse } from "~/lib/api.server";
import type { User } from "./users.server";

/**
 * The signed-in user of a loader or action, or what to answer instead: pages redirect to the
 * sign-in page (coming back here after), JSON routes answer 401; 403 where a superuser is needed.
 * The auth gate already answered requests that lack a session; this gives loaders their user
 * and holds where the gate is not in front (data requests of client-side navigation).
 */
export function requireUser(args: { context: AppLoadContext; request: Request }, level: "editor" | "superuser" = "editor"): User {
  const { context, request } = args;
  const user = context.user;
  const url = new URL(request.url);
  const api = url.pathname.startsWith("/api/");
  if (!user) {
    if (api) throw jsonResponse({ message: "Sign in first.", statusCode: 401 }, { status: 401 });
    const back = url.pathname.replace(/\.data$/, "") + url.search.replace(/([?&])_routes=[^&]*&?/, "$1").replace(/[?&]$/, "");
    throw redirect(`/login?redirect=${encodeURIComponent(back)}`);
  }
  if (level === "superuser" && !user.superuser) {
    if (api) throw jsonResponse({ message: "Only a superuser may do this.", statusCode: 403 }, { status: 403 });
    throw data({ message: "forbidden" }, { status: 403 });
  }
  return user;
}
