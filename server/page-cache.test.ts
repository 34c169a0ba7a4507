import { describe, expect, it } from "vitest";
import { pickEncoding } from "./page-cache";

describe("pickEncoding", () => {
  it("prefers brotli, then gzip, honouring q-values and *", () => {
    expect(pickEncoding(undefined)).toBe("identity");
    expect(pickEncoding("")).toBe("identity");
    expect(pickEncoding("gzip, deflate, br, zstd")).toBe("br");
    expect(pickEncoding("gzip")).toBe("gzip");
    expect(pickEncoding("GZIP;q=0.5")).toBe("gzip");
    expect(pickEncoding("br;q=0, gzip;q=0.8")).toBe("gzip");
    expect(pickEncoding("br;q=0,gzip;q=0")).toBe("identity");
    expect(pickEncoding("*")).toBe("br");
    expect(pickEncoding("*;q=0, identity")).toBe("identity");
    expect(pickEncoding("deflate")).toBe("identity");
    expect(pickEncoding("gzip;q=abc")).toBe("identity");
  });
});
