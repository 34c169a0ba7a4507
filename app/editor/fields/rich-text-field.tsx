// A stand-in until the Lexical field lands (replaced by app/editor/fields/rich-text-field.tsx of the rich-text work).
export function RichTextField(props: { id: string; label: string; value: string; onChange(html: string): void; language: "de" | "en"; describedBy?: string }) {
  return <textarea id={props.id} aria-label={props.label} value={props.value} onChange={(e) => props.onChange(e.target.value)} />;
}
