import { type RouteConfig, index, route } from "@react-router/dev/routes";

export default [
  index("routes/home.tsx"),
  route("api/rest", "routes/api.rest.ts"),
  route("api/getcontentitem", "routes/api.getcontentitem.ts"),
  route("api/getassets", "routes/api.getassets.ts"),
  route("api/schemas", "routes/api.schemas.ts"),
  route("api/getThirdPartyScripts", "routes/api.get-third-party-scripts.ts"),
  route("api/assets/:id/*", "routes/api.assets.ts"),
  route("api/assets/:id", "routes/api.assets.ts", { id: "asset-content-bare" }),
  route("api/squidex/*", "routes/api.squidex.ts"),
  route("api/*", "routes/api.not-found.ts"),
] satisfies RouteConfig;
