import { describe, expect, it } from "vitest";
import { parseEnv } from "./env.server";

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
