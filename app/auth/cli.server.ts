import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import { openDatabase } from "~/content/db";
import { AssetStore } from "~/content/assets";
import { ContentStore } from "~/content/store";
import { ContentError } from "~/content/errors";
import { parseEnv } from "~/env.server";
import { validateSubmission } from "~/forms/engine";
import { inviteForm } from "./login-form";
import { passwordProblem } from "./password.server";
import { UserStore } from "./users.server";

const USAGE = "usage: npm run user:create -- --email <address> [--password <password>] [--name <name>] [--superuser] [--language de|en]";

/**
 * `npm run user:create`: adds a user to the store the server uses (DATA_DIR or DATABASE_URL, as the
 * server reads them). Without --password a strong one is generated and printed once.
 * Returns the exit code; prints to the given writers.
 */
export async function createUserCommand(argv: string[], out: (line: string) => void = console.log, err: (line: string) => void = console.error): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { email: { type: "string" }, password: { type: "string" }, name: { type: "string" }, superuser: { type: "boolean" }, language: { type: "string" } },
      strict: true,
    }));
  } catch (error) {
    err(`${error instanceof Error ? error.message : error}\n${USAGE}`);
    return 2;
  }
  if (!values.email) {
    err(USAGE);
    return 2;
  }
  const checked = await validateSubmission(inviteForm("en"), { email: values.email, name: values.name ?? "" }, "en");
  if (!checked.valid) {
    err(Object.values(checked.errors).flat().join(" "));
    return 2;
  }
  const generated = values.password === undefined;
  const password = values.password ?? randomBytes(15).toString("base64url");
  const problem = passwordProblem(password, values.email);
  if (problem) {
    err(`The password is not acceptable (${problem}): at least 10 characters, not the e-mail address.`);
    return 2;
  }
  const env = parseEnv();
  const { db, dialect } = await openDatabase({ databaseUrl: env.DATABASE_URL, sqlitePath: env.sqlitePath });
  const store = new ContentStore(db, dialect, new AssetStore(env.assetsDir, env.ASSET_MAX_BYTES));
  try {
    await store.migrate();
    const user = await new UserStore(db).create({
      email: values.email,
      password,
      name: values.name,
      superuser: values.superuser === true,
      language: values.language === "en" ? "en" : "de",
    });
    out(`created ${user.superuser ? "superuser" : "editor"} ${user.email}${generated ? ` with the password ${password} (shown once)` : ""}`);
    return 0;
  } catch (error) {
    err(error instanceof ContentError ? error.message : String(error));
    return 1;
  } finally {
    await store.close();
  }
}
