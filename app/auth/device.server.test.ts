import { describe, expect, it } from "vitest";
import { TokenSigner } from "~/lib/tokens.server";
import { DEVICE_MAX_AGE_SECONDS, DeviceCookies, deviceCookie } from "./device.server";

const owner = { id: "5b0c1f4e-0000-4000-8000-000000000001", sessionGeneration: 3 };

describe("device cookies", () => {
  it("are trusted for the account and generation they were issued for, and nothing else", () => {
    const signer = new TokenSigner(TokenSigner.newKey());
    const devices = new DeviceCookies(signer);
    const { value, maxAge } = devices.issue(owner);
    expect(maxAge).toBe(DEVICE_MAX_AGE_SECONDS);
    const id = devices.trusted(value, owner);
    expect(id).toMatch(/^[\w-]{22}$/);
    // Every sign-in gets a device id of its own.
    expect(devices.trusted(devices.issue(owner).value, owner)).not.toBe(id);

    expect(devices.trusted(value, { ...owner, id: "another-user" }), "another account").toBeUndefined();
    expect(devices.trusted(value, { ...owner, sessionGeneration: 4 }), "a newer generation (new password, signed out everywhere)").toBeUndefined();
    expect(devices.trusted(value, undefined), "an unknown address").toBeUndefined();
    expect(devices.trusted(undefined, owner)).toBeUndefined();
    expect(new DeviceCookies(new TokenSigner(TokenSigner.newKey())).trusted(value, owner), "another key").toBeUndefined();
    // The same signer's tokens for other purposes are no device cookies.
    expect(devices.trusted(signer.sign("set-password", `${owner.id}.3.x`, 60), owner)).toBeUndefined();
    const [body, mac] = value.split(".");
    expect(devices.trusted(`${body}.${mac!.slice(0, -2)}AA`, owner), "tampered").toBeUndefined();
  });

  it("expire", () => {
    let now = Date.UTC(2026, 10, 27);
    const devices = new DeviceCookies(new TokenSigner(TokenSigner.newKey(), () => now));
    const { value } = devices.issue(owner);
    now += (DEVICE_MAX_AGE_SECONDS - 10) * 1000;
    expect(devices.trusted(value, owner)).toBeDefined();
    now += 20_000;
    expect(devices.trusted(value, owner)).toBeUndefined();
  });

  it("are HttpOnly, SameSite=Lax, Path=/, Secure only over HTTPS", () => {
    expect(deviceCookie("v", 60, false)).toBe("pn_device=v; Path=/; Max-Age=60; HttpOnly; SameSite=Lax");
    expect(deviceCookie("v", 60, true)).toBe("pn_device=v; Path=/; Max-Age=60; HttpOnly; SameSite=Lax; Secure");
  });
});
