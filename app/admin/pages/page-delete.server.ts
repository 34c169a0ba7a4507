/**
 * Deleting a page, from its own screen (`/manage/pages/{pagename}`) or the page list's post (kept
 * for scripts): superusers only, and asked first by the server (issue 22, point 4) with the title
 * and address of what goes.
 */
import { type AdminArgs, askFirst, done, isConfirmed, mutate, refused, writer } from "~/admin/admin.server";
import { adminTexts } from "~/admin/texts";
import type { User } from "~/auth/users.server";
import { can, userPrincipal } from "~/content/policy";
import type { ContentItem } from "~/content/types";
import type { Language } from "~/i18n/languages";
import { pageSettings } from "./page-data";
import { PAGES_SCHEMA } from "./page-slug";

const texts = {
  de: {
    deleted: "Seite gelöscht.",
    confirmDelete: (title: string, slug: string) => `Seite „${title}“ (/${slug}) wirklich löschen?`,
    deleteDetail: "Die Seite verschwindet von der Website, und ihre Adresse führt dann ins Leere. Gelöschte Seiten lassen sich nicht wiederherstellen. Soll sie nur nicht mehr öffentlich sein, ziehen Sie sie auf ihrer Seite zurück.",
    yesDelete: (title: string) => `Ja, Seite „${title}“ löschen`,
  },
  en: {
    deleted: "Page deleted.",
    confirmDelete: (title: string, slug: string) => `Really delete the page “${title}” (/${slug})?`,
    deleteDetail: "The page disappears from the site, and its address then leads nowhere. Deleted pages cannot be brought back. If it should only stop being public, unpublish it on its own screen instead.",
    yesDelete: (title: string) => `Yes, delete the page “${title}”`,
  },
} satisfies Record<Language, unknown>;

/** The question (nothing changed), the refusal, or the done delete of `page` at the version the editor saw. */
export async function deletePage(args: AdminArgs, user: User, page: ContentItem, fields: Record<string, string>, expectedVersion: number) {
  const text = texts[user.language];
  if (!can(userPrincipal(user), "delete", PAGES_SCHEMA)) return refused(adminTexts[user.language].forbidden, 403);
  const settings = pageSettings(page);
  if (!isConfirmed(fields)) {
    const name = settings.title[user.language] || page.id;
    return askFirst({ question: text.confirmDelete(name, settings.slug[user.language]), detail: text.deleteDetail, confirmLabel: text.yesDelete(name), fields: { intent: "delete", id: page.id, version: String(expectedVersion) } });
  }
  return mutate(
    { ...args, user },
    null,
    () => args.context.services.store.delete(PAGES_SCHEMA, page.id, { ...writer(user, { action: "delete-page", detail: settings.slug.de }), expectedVersion }),
    () => done(text.deleted),
  );
}
