import { useEffect, useState } from "react";
import { useSite } from "./site-context";
import { own } from "~/lib/input";
import { http } from "~/lib/http";

export type IconState = "not loaded" | "loading" | "loaded";

/** Icons fetched once per page view, shared by every <Icon> of the same name. */
const loaded = new Map<string, Promise<string | null>>();

function fetchIcon(name: string): Promise<string | null> {
  let pending = loaded.get(name);
  if (!pending) {
    pending = http(`/api/icons/${encodeURIComponent(name)}`, { headers: { accept: "image/svg+xml" } })
      .then((res) => (res.ok ? res.text() : null))
      .catch(() => null);
    loaded.set(name, pending);
  }
  return pending;
}

/**
 * A theme icon. Critical icons are inlined by the server; the others go not loaded → loading →
 * loaded in the browser, so they never block the first paint. The SVG was sanitised on the server.
 */
export function Icon({ name, className = "size-6" }: { name: string; className?: string }) {
  const { criticalIcons } = useSite();
  const inline = own(criticalIcons, name);
  const [state, setState] = useState<IconState>(inline ? "loaded" : "not loaded");
  const [svg, setSvg] = useState<string | null>(inline ?? null);

  useEffect(() => {
    if (inline) return;
    let cancelled = false;
    setState("loading");
    void fetchIcon(name).then((markup) => {
      if (cancelled) return;
      setSvg(markup);
      setState("loaded");
    });
    return () => {
      cancelled = true;
    };
  }, [name, inline]);

  return (
    <span
      aria-hidden="true"
      data-icon={name}
      data-state={state}
      className={`inline-block shrink-0 [&>svg]:size-full ${className}`}
      dangerouslySetInnerHTML={svg ? { __html: svg } : undefined}
    />
  );
}
