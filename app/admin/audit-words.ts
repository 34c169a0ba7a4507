import type { Language } from "~/i18n/languages";

/**
 * The audit log's actions (as every write path records them) in editors' words. An action not
 * listed here shows as recorded; the admin walk's language check (tests/e2e/admin-a11y.spec.ts)
 * reads the filter's choices, so a new action without words is noticed there.
 */
export const AUDIT_ACTIONS: Readonly<Record<string, Record<Language, string>>> = {
  "create-content": { de: "Eintrag angelegt", en: "Item created" },
  "update-content": { de: "Eintrag geändert", en: "Item changed" },
  "patch-content": { de: "Eintrag teilweise geändert", en: "Item partly changed" },
  "publish-content": { de: "Veröffentlicht", en: "Published" },
  "unpublish-content": { de: "Zurückgezogen", en: "Unpublished" },
  "archive-content": { de: "Archiviert", en: "Archived" },
  "delete-content": { de: "Eintrag gelöscht", en: "Item deleted" },
  "create-draft": { de: "Entwurf begonnen", en: "Draft started" },
  "discard-draft": { de: "Entwurf verworfen", en: "Draft discarded" },
  "create-schema": { de: "Sammlung angelegt", en: "Collection created" },
  "update-schema": { de: "Sammlung geändert", en: "Collection changed" },
  "update-block-schema": { de: "Baustein-Felder geändert", en: "Block fields changed" },
  "upload-asset": { de: "Datei hochgeladen", en: "File uploaded" },
  "rename-asset": { de: "Datei umbenannt", en: "File renamed" },
  "move-asset": { de: "Datei verschoben", en: "File moved" },
  "annotate-asset": { de: "Datei beschriftet", en: "File annotated" },
  "replace-asset-content": { de: "Datei ersetzt", en: "File replaced" },
  "delete-asset": { de: "Datei gelöscht", en: "File deleted" },
  "create-folder": { de: "Ordner angelegt", en: "Folder created" },
  "rename-folder": { de: "Ordner umbenannt", en: "Folder renamed" },
  "delete-folder": { de: "Ordner gelöscht", en: "Folder deleted" },
  "create-page": { de: "Seite angelegt", en: "Page created" },
  "rename-page": { de: "Seite umbenannt", en: "Page renamed" },
  "delete-page": { de: "Seite gelöscht", en: "Page deleted" },
  "edit-page-blocks": { de: "Seite bearbeitet", en: "Page edited" },
  "publish-page": { de: "Seite veröffentlicht", en: "Page published" },
  "discard-page-draft": { de: "Seitenentwurf verworfen", en: "Page draft discarded" },
  "restore-page-version": { de: "Ältere Fassung wiederhergestellt", en: "Earlier version restored" },
  "create-editor-template": { de: "Vorlage gespeichert", en: "Template saved" },
  "delete-editor-template": { de: "Vorlage gelöscht", en: "Template deleted" },
  "approve-registration": { de: "Registrierung freigegeben", en: "Registration approved" },
  "create-appointment": { de: "Termin angelegt", en: "Slot created" },
  "delete-appointment": { de: "Termin gelöscht", en: "Slot deleted" },
  "cancel-booking": { de: "Buchung storniert", en: "Booking cancelled" },
  "requeue-mail": { de: "Mail erneut gesendet", en: "Mail sent again" },
  "invite-user": { de: "Person eingeladen", en: "Person invited" },
  "remove-user": { de: "Zugang entfernt", en: "Access removed" },
  "grant-superuser": { de: "Administrationsrechte erteilt", en: "Administration rights granted" },
  "revoke-superuser": { de: "Administrationsrechte entzogen", en: "Administration rights removed" },
  "reset-password": { de: "Passwort zurückgesetzt", en: "Password reset" },
  "set-password": { de: "Passwort gesetzt", en: "Password set" },
  "change-password": { de: "Passwort geändert", en: "Password changed" },
  "change-language": { de: "Sprache der Verwaltung geändert", en: "Admin language changed" },
  "sign-out": { de: "Abgemeldet", en: "Signed out" },
  "sign-out-everywhere": { de: "Überall abgemeldet", en: "Signed out everywhere" },
  publish: { de: "Veröffentlicht", en: "Published" },
  unpublish: { de: "Zurückgezogen", en: "Unpublished" },
  update: { de: "Geändert", en: "Changed" },
};

export function auditAction(action: string, language: Language): string {
  return Object.hasOwn(AUDIT_ACTIONS, action) ? AUDIT_ACTIONS[action]![language] : action;
}
