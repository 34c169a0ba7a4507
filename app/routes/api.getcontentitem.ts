import type { Route } from "./+types/api.getcontentitem";
import { contentItem } from "~/content/public-api";
import { apiAction } from "~/lib/api.server";

export const loader = () => apiAction.get();
export const action = ({ request, context }: Route.ActionArgs) => apiAction.post(request, context, contentItem);
