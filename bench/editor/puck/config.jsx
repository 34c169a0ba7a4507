// Four simple block types in the manner of Puck's getting-started docs: each a render function
// and plain text/textarea fields. No custom fields, no resolveData: Puck's defaults otherwise.
export const config = {
  components: {
    HeadingBlock: {
      fields: { title: { type: "text" } },
      defaultProps: { title: "Heading" },
      render: ({ title }) => <h2 style={{ fontSize: 28, margin: "24px 16px" }}>{title}</h2>,
    },
    TextBlock: {
      fields: { text: { type: "textarea" } },
      defaultProps: { text: "Text" },
      render: ({ text }) => <p style={{ margin: "12px 16px", lineHeight: 1.5 }}>{text}</p>,
    },
    ButtonBlock: {
      fields: { label: { type: "text" }, href: { type: "text" } },
      defaultProps: { label: "Button", href: "#" },
      render: ({ label, href }) => (
        <div style={{ margin: "12px 16px" }}>
          <a href={href} style={{ display: "inline-block", padding: "8px 16px", background: "#0158ad", color: "#fff", borderRadius: 4 }}>
            {label}
          </a>
        </div>
      ),
    },
    CardBlock: {
      fields: { title: { type: "text" }, description: { type: "textarea" } },
      defaultProps: { title: "Card", description: "Description" },
      render: ({ title, description }) => (
        <div style={{ margin: "12px 16px", padding: 16, border: "1px solid #ddd", borderRadius: 8 }}>
          <h3 style={{ margin: "0 0 8px" }}>{title}</h3>
          <p style={{ margin: 0 }}>{description}</p>
        </div>
      ),
    },
  },
};

const KINDS = ["HeadingBlock", "TextBlock", "ButtonBlock", "CardBlock"];

/** Data with n blocks, the four kinds in turn; ids are stable ("block-1" … "block-n"). */
export function benchData(n) {
  const content = [];
  for (let i = 1; i <= n; i++) {
    const type = KINDS[(i - 1) % 4];
    const id = `block-${i}`;
    const props =
      type === "HeadingBlock"
        ? { id, title: `Heading ${i}` }
        : type === "TextBlock"
          ? { id, text: `Paragraph ${i}: Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore.` }
          : type === "ButtonBlock"
            ? { id, label: `Button ${i}`, href: "#" }
            : { id, title: `Card ${i}`, description: `Card ${i} description text.` };
    content.push({ type, props });
  }
  return { content, root: { props: { title: "Benchmark" } } };
}
