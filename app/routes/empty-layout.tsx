import { Outlet } from "react-router";

/** The empty layout: no header, footer or consent banner, for utility screens. */
export default function EmptyLayout() {
  return (
    <main className="mx-auto max-w-xl px-6 py-16">
      <Outlet />
    </main>
  );
}
