import { Link } from "react-router";

/** Internal paths navigate client-side with intent prefetch; everything else is a plain link. */
export function SmartLink({ href, className, children }: { href: string; className?: string; children: React.ReactNode }) {
  if (href.startsWith("/") && !href.startsWith("//")) {
    return (
      <Link to={href} prefetch="intent" className={className}>
        {children}
      </Link>
    );
  }
  const external = /^https?:\/\//.test(href);
  return (
    <a href={href} className={className} {...(external ? { rel: "noopener noreferrer" } : {})}>
      {children}
    </a>
  );
}
