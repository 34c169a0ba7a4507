import { describe, expect, it } from "vitest";
import { claimReload, RELOAD_GUARD_MS, RELOAD_KEY } from "./reload-guard";

function memory(): Pick<Storage, "getItem" | "setItem"> & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v) };
}

describe("reload guard", () => {
  it("allows one reload per 10 s window and stamps it", () => {
    const s = memory();
    expect(claimReload(s, 1_000_000)).toBe(true);
    expect(s.data.get(RELOAD_KEY)).toBe("1000000");
    expect(claimReload(s, 1_000_001)).toBe(false);
    expect(claimReload(s, 1_000_000 + RELOAD_GUARD_MS - 1)).toBe(false);
    expect(claimReload(s, 1_000_000 + RELOAD_GUARD_MS)).toBe(true);
  });

  it("ignores a garbled stamp or one from the future (a clock set back)", () => {
    const s = memory();
    s.data.set(RELOAD_KEY, "nonsense");
    expect(claimReload(s, 5_000)).toBe(true);
    s.data.set(RELOAD_KEY, "99999999");
    expect(claimReload(s, 5_000)).toBe(true);
  });

  it("does not reload when the stamp cannot be kept", () => {
    const broken = { getItem: () => null, setItem: () => { throw new Error("quota"); } };
    expect(claimReload(broken, 1)).toBe(false);
  });
});
