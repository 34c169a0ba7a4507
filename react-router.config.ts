import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  appDirectory: "app",
  // BUILD_DIR: a second build beside the usual one (parallel test runs); the server reads the same variable.
  buildDirectory: process.env.BUILD_DIR || "build",
} satisfies Config;
