import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkDownloadUrl, downloadPublicFile, isPublicAddress } from "./remote-file.server";

describe("which addresses a download may reach", () => {
  it("public addresses only: no loopback, private, link-local, shared, reserved, multicast or mapped private ones", () => {
    for (const ok of ["8.8.8.8", "1.1.1.1", "140.82.112.3", "185.199.108.133", "2606:4700:4700::1111", "2a00:1450:4001:80b::200e", "::ffff:8.8.8.8"]) expect(isPublicAddress(ok), ok).toBe(true);
    for (const no of [
      "127.0.0.1",
      "127.255.255.254",
      "0.0.0.0",
      "10.1.2.3",
      "172.16.0.1",
      "172.31.255.255",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "192.0.2.10",
      "198.18.0.1",
      "224.0.0.1",
      "255.255.255.255",
      "::",
      "::1",
      "fe80::1",
      "fc00::1",
      "fd12:3456::1",
      "ff02::1",
      "::ffff:127.0.0.1",
      "::ffff:10.0.0.1",
      "::ffff:7f00:1",
      "64:ff9b::a00:1",
      "2001:db8::1",
      "not-an-ip",
      "",
    ])
      expect(isPublicAddress(no), no).toBe(false);
  });

  it("refuses addresses that are no http(s) file address, with a message", () => {
    for (const [raw, message] of [
      ["file:///etc/passwd", /http or https only, not file/],
      ["gopher://example.org/x", /http or https only/],
      ["javascript:alert(1)", /http or https only/],
      ["https://user:secret@example.org/x.png", /user name or password/],
      ["not a url", /not an address/],
      ["/relative/logo.png", /not an address/],
      [`https://example.org/${"a".repeat(3000)}`, /longer than 2048/],
    ] as const)
      expect(() => checkDownloadUrl(raw), raw).toThrow(message);
    expect(checkDownloadUrl("https://raw.githubusercontent.com/Squidex/squidex/master/media/logo-squared.png").hostname).toBe("raw.githubusercontent.com");
  });
});

describe("downloading", () => {
  let server: http.Server;
  let base: string;
  const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAYAAAD0In+KAAAAEUlEQVR4nGP8z8DwnwEIGAEAEOkC/4Ab7ZUAAAAASUVORK5CYII=", "base64");
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const url = new URL(req.url ?? "/", "http://x");
      if (url.pathname === "/logo%20neu.png") return void res.writeHead(200, { "content-type": "image/png; charset=binary" }).end(PNG);
      if (url.pathname === "/to-metadata") return void res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" }).end();
      if (url.pathname === "/to-localhost") return void res.writeHead(301, { location: `http://localhost:${(server.address() as AddressInfo).port}/logo%20neu.png` }).end();
      if (url.pathname === "/to-self") return void res.writeHead(307, { location: "/logo%20neu.png" }).end();
      if (url.pathname === "/loop") return void res.writeHead(302, { location: "/loop" }).end();
      if (url.pathname === "/big") return void res.writeHead(200, { "content-type": "application/octet-stream", "content-length": "5000" }).end(Buffer.alloc(5000));
      if (url.pathname === "/big-stream") {
        res.writeHead(200, { "content-type": "application/octet-stream" });
        res.write(Buffer.alloc(3000));
        return void res.end(Buffer.alloc(3000));
      }
      if (url.pathname === "/slow") return void setTimeout(() => res.end("late"), 2000);
      res.writeHead(404).end("no");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const allow = () => new Set(["127.0.0.1"]);

  it("refuses a private address unless its host is allowed, and then downloads it with its type and name", async () => {
    await expect(downloadPublicFile(`${base}/logo%20neu.png`, { limit: 4096 })).rejects.toMatchObject({ statusCode: 400, message: expect.stringMatching(/private network \(127\.0\.0\.1\)/) });
    await expect(downloadPublicFile(`http://localhost:${new URL(base).port}/logo%20neu.png`, { limit: 4096 })).rejects.toMatchObject({ statusCode: 400 });
    const got = await downloadPublicFile(`${base}/logo%20neu.png`, { limit: 4096, allowHosts: allow() });
    expect(got).toEqual({ body: PNG, mimeType: "image/png", fileName: "logo neu.png" });
    expect((await downloadPublicFile(`${base}/to-self`, { limit: 4096, allowHosts: allow() })).body).toEqual(PNG);
  });

  it("checks every redirect as the first address: none into the metadata service or another private host", async () => {
    await expect(downloadPublicFile(`${base}/to-metadata`, { limit: 4096, allowHosts: allow() })).rejects.toMatchObject({ statusCode: 400, message: expect.stringMatching(/private network \(169\.254\.169\.254\)/) });
    await expect(downloadPublicFile(`${base}/to-localhost`, { limit: 4096, allowHosts: allow() })).rejects.toMatchObject({ statusCode: 400, message: expect.stringMatching(/private network/) });
    await expect(downloadPublicFile(`${base}/loop`, { limit: 4096, allowHosts: allow() })).rejects.toMatchObject({ statusCode: 400, message: expect.stringMatching(/redirects more than 3 times/) });
  });

  it("stops at the size limit (said or streamed), a failed answer, an unknown host and the time limit: each a 4xx with a message", async () => {
    await expect(downloadPublicFile(`${base}/big`, { limit: 4096, allowHosts: allow() })).rejects.toMatchObject({ statusCode: 413 });
    await expect(downloadPublicFile(`${base}/big-stream`, { limit: 4096, allowHosts: allow() })).rejects.toMatchObject({ statusCode: 413 });
    await expect(downloadPublicFile(`${base}/missing.png`, { limit: 4096, allowHosts: allow() })).rejects.toMatchObject({ statusCode: 400, message: expect.stringMatching(/answered 404/) });
    await expect(downloadPublicFile("https://no-such-host.invalid/logo.png", { limit: 4096 })).rejects.toMatchObject({ statusCode: 400, message: expect.stringMatching(/could not be found/) });
    await expect(downloadPublicFile(`${base}/slow`, { limit: 4096, allowHosts: allow(), timeoutMs: 200 })).rejects.toMatchObject({ statusCode: 400, message: expect.stringMatching(/took too long/) });
  });
});
