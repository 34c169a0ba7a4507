import { useTextStyle } from "~/site/site-context";

const WIDTHS = { narrow: "max-w-3xl", medium: "max-w-5xl", wide: "max-w-6xl" } as const;

/** A block's frame: its width on the page and, when it has one, its heading in the heading-2 style. */
export function BlockSection({ heading, width = "narrow", children }: { heading?: string; width?: keyof typeof WIDTHS; children: React.ReactNode }) {
  const h2 = useTextStyle("heading-2", "text-3xl font-semibold");
  return (
    <section className={`mx-auto ${WIDTHS[width]} px-4 py-10`}>
      {heading ? (
        <h2 className={`mb-6 ${h2}`} data-edit-field="heading">
          {heading}
        </h2>
      ) : null}
      {children}
    </section>
  );
}

/** A block field that should be text; anything else reads as empty. */
export const text = (v: unknown) => (typeof v === "string" ? v : "");
