import { useEffect, useState } from "react";
import type { Route } from "./+types/test-injected-script";
import { notFound } from "~/site/page.server";

/**
 * A page with a script in its markup that React Router did not write — what content that got past
 * the sanitiser would look like — so a browser test can see the Content-Security-Policy refuse it
 * while the page's own scripts run. Answers 404 unless TEST_ROUTES=true (test servers only).
 */
export function loader({ context, request }: Route.LoaderArgs) {
  if (!context.services.env.TEST_ROUTES) notFound(new URL(request.url).pathname);
  return { html: `<script>window.__injected = true; document.title = "injected";</script><p>Injected markup</p>` };
}

export default function TestInjectedScript({ loaderData }: Route.ComponentProps) {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return (
    <main>
      <title>Test page</title>
      <div dangerouslySetInnerHTML={{ __html: loaderData.html }} />
      <p data-hydrated={hydrated ? "yes" : "no"}>{hydrated ? "hydrated" : "server"}</p>
    </main>
  );
}
