import { ContentError } from "../errors";
import { decodeComponent } from "../../lib/input";
import { readForm } from "../../lib/body";
import { TOKEN_SECONDS } from "./auth";
import { json, type ApiAnswer, type ApiRequest, type SquidexHttpContext } from "./respond";

/**
 * The identity server's token endpoint, `POST identity-server/connect/token`: client credentials
 * (form fields or HTTP Basic), OAuth2 error bodies (401 invalid_client, 400 otherwise).
 */

const TOKEN_FORM_LIMIT = 8 * 1024;

export async function token(request: ApiRequest, ctx: SquidexHttpContext): Promise<ApiAnswer> {
  const form = await readForm(request, TOKEN_FORM_LIMIT).catch((e: unknown) => {
    if (e instanceof ContentError && e.statusCode === 415) return undefined;
    throw e;
  });
  if (!form) return json({ error: "invalid_request", error_description: "Send the token request as application/x-www-form-urlencoded." }, 400);
  let clientId = form.get("client_id") ?? "";
  let clientSecret = form.get("client_secret") ?? "";
  const basic = request.headers.get("authorization")?.match(/^Basic\s+(\S+)$/i);
  if (basic) {
    // RFC 6749 §2.3.1: both halves are form-encoded; a half that is not counts as no credentials.
    const [id = "", secret = ""] = Buffer.from(basic[1]!, "base64").toString("utf8").split(":", 2);
    clientId = decodeComponent(id.replace(/\+/g, " ")) ?? "";
    clientSecret = decodeComponent(secret.replace(/\+/g, " ")) ?? "";
  }
  if (form.get("grant_type") !== "client_credentials")
    return json({ error: "unsupported_grant_type", error_description: "Only client_credentials is supported." }, 400);
  const scope = form.get("scope") ?? "squidex-api";
  if (scope !== "squidex-api") return json({ error: "invalid_scope", error_description: "The scope must be squidex-api." }, 400);
  const access = await ctx.auth.issueToken(clientId, clientSecret);
  if (!access) return json({ error: "invalid_client", error_description: "The client credentials are invalid." }, 401);
  return json({ access_token: access, token_type: "Bearer", expires_in: TOKEN_SECONDS, scope: "squidex-api" });
}
