import { describe, expect, it } from "vitest";
import { parseEnv, remoteSquidexOf } from "./env.server";

describe("TRUST_PROXY", () => {
  it("is off unless set: no client's X-Forwarded-* headers count", () => {
    expect(parseEnv({}).TRUST_PROXY).toBe(false);
    expect(parseEnv({ TRUST_PROXY: "" }).TRUST_PROXY).toBe(false);
    expect(parseEnv({ TRUST_PROXY: "false" }).TRUST_PROXY).toBe(false);
  });

  it("takes a hop count, or the proxies' addresses, CIDR ranges and Express's range names", () => {
    expect(parseEnv({ TRUST_PROXY: "1" }).TRUST_PROXY).toBe(1);
    expect(parseEnv({ TRUST_PROXY: "loopback" }).TRUST_PROXY).toEqual(["loopback"]);
    expect(parseEnv({ TRUST_PROXY: "10.0.0.0/8, 192.168.1.7,::1, fd00::/8" }).TRUST_PROXY).toEqual(["10.0.0.0/8", "192.168.1.7", "::1", "fd00::/8"]);
  });

  it("stops the start with a message naming the variable for what is none of these (and for true)", () => {
    for (const bad of ["true", "11", "10.0.0.0/33", "proxy.example", "loopback,abc", "1.2.3.4/8/9", "10.0.0.0/"]) {
      expect(() => parseEnv({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY: .+\(got /);
    }
  });
});

describe("CONSENT_SERVICE_URL", () => {
  it("takes an https loader script, http only on this machine, and nothing else", () => {
    expect(parseEnv({ CONSENT_SERVICE_URL: "https://cmp.example/loader.js" }).CONSENT_SERVICE_URL).toBe("https://cmp.example/loader.js");
    expect(parseEnv({ CONSENT_SERVICE_URL: "http://localhost:3236/__test/consent-service.js" }).CONSENT_SERVICE_URL).toContain("localhost");
    expect(parseEnv({ CONSENT_SERVICE_URL: "" }).CONSENT_SERVICE_URL).toBeUndefined();
    for (const bad of ["http://cmp.example/loader.js", "javascript:alert(1)", "not a url"]) expect(() => parseEnv({ CONSENT_SERVICE_URL: bad }), bad).toThrow(/CONSENT_SERVICE_URL/);
  });
});

describe("a remote Squidex (SQUIDEX_URL, SQUIDEX_APP, SQUIDEX_CLIENT_ID, SQUIDEX_CLIENT_SECRET)", () => {
  const remote = { SQUIDEX_URL: "https://squidex.example/", SQUIDEX_APP: "praxisnetz", SQUIDEX_CLIENT_ID: "praxisnetz:default", SQUIDEX_CLIENT_SECRET: "0123456789abcdef0123" };

  it("is off unless set, and a secret alone stays the embedded client's", () => {
    expect(remoteSquidexOf(parseEnv({}))).toBeNull();
    const embedded = parseEnv({ SQUIDEX_CLIENT_SECRET: "0123456789abcdef" });
    expect(remoteSquidexOf(embedded)).toBeNull();
    expect(embedded.SQUIDEX_CLIENT_SECRET).toBe("0123456789abcdef");
  });

  it("takes all four, the URL without its trailing slash", () => {
    expect(remoteSquidexOf(parseEnv(remote))).toEqual({ url: "https://squidex.example", app: "praxisnetz", clientId: "praxisnetz:default", clientSecret: remote.SQUIDEX_CLIENT_SECRET });
    expect(parseEnv({ ...remote, SQUIDEX_URL: "http://127.0.0.1:3301/api/squidex" }).SQUIDEX_URL).toBe("http://127.0.0.1:3301/api/squidex");
  });

  it("stops the start when only some are set, naming what is missing", () => {
    expect(() => parseEnv({ SQUIDEX_URL: remote.SQUIDEX_URL })).toThrow(/SQUIDEX_APP: .*together[\s\S]*SQUIDEX_CLIENT_ID[\s\S]*SQUIDEX_CLIENT_SECRET/);
    expect(() => parseEnv({ ...remote, SQUIDEX_CLIENT_SECRET: "" })).toThrow(/SQUIDEX_CLIENT_SECRET: .*together/);
    expect(() => parseEnv({ SQUIDEX_APP: "praxisnetz" })).toThrow(/SQUIDEX_URL: .*together/);
  });

  it("refuses a URL that is not plain http(s): another scheme, credentials, a query, a fragment", () => {
    for (const bad of ["ftp://squidex.example", "https://user:pass@squidex.example", "https://squidex.example/?x=1", "https://squidex.example/#x", "not a url", "javascript:alert(1)"])
      expect(() => parseEnv({ ...remote, SQUIDEX_URL: bad }), bad).toThrow(/SQUIDEX_URL/);
    expect(() => parseEnv({ ...remote, SQUIDEX_APP: "Praxis Netz" })).toThrow(/SQUIDEX_APP/);
    expect(() => parseEnv({ ...remote, SQUIDEX_CLIENT_ID: "a b" })).toThrow(/SQUIDEX_CLIENT_ID/);
  });
});
