import { isRouteErrorResponse, useRouteError } from "react-router";
import { useAdmin } from "./ui";
import { log } from "~/lib/log";

/**
 * Errors of admin screens: exported by every screen (`export { AdminErrorBoundary as ErrorBoundary }`)
 * so the layout's menu stays; 403 and 404 say what happened, anything else gives its status.
 */
export function AdminErrorBoundary() {
  const error = useRouteError();
  const { t } = useAdmin();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const given = isRouteErrorResponse(error) && error.data && typeof error.data === "object" ? (error.data as { message?: unknown }).message : undefined;
  const message = status === 403 ? t.forbidden : status === 404 ? t.notFound : typeof given === "string" && status < 500 ? given : t.saveFailed(status);
  if (!isRouteErrorResponse(error)) log.error("An admin screen failed", error);
  return (
    <div className="mx-auto max-w-2xl py-8" data-error-status={status}>
      <h1 className="text-2xl font-bold">
        {t.errorTitle} {status}
      </h1>
      <p className="mt-4">{message}</p>
      <p className="mt-6">
        <a className="underline" href="/manage">
          {t.backToDashboard}
        </a>
      </p>
    </div>
  );
}
