import { Link } from "react-router";
import { localizedPath } from "~/i18n/languages";
import { useSite } from "~/site/site-context";
import { BlockSection, text } from "../block-section";
import type { BlockDefinition, BlockProps } from "../types";

function RegistrationBlock({ block }: BlockProps) {
  const { language, t } = useSite();
  return (
    <BlockSection heading={text(block.heading) || t.registration} width="wide">
      {block.intro ? <p className="mb-4 max-w-3xl">{text(block.intro)}</p> : null}
      <Link to={localizedPath(language, "/practitioners/register")} className="inline-block rounded bg-[var(--color-main,#0f5e63)] px-5 py-3 font-semibold text-white" data-placeholder="registration">
        {t.registration}
      </Link>
    </BlockSection>
  );
}

export const definition: BlockDefinition = {
  name: "block-practitioner-registration",
  palette: { label: { de: "Registrierung Behandelnde", en: "Practitioner registration" }, icon: "form", group: "practitioners" },
  Component: RegistrationBlock,
};
