# syntax=docker/dockerfile:1
# The gateway image: build with the whole workspace, run with the built bundle and production dependencies
# only. Build:  docker build -t toolmesh-gateway .   (or podman build; README, "Running in production")
ARG NODE_VERSION=20.20.2

# 1. build: the workspace's locked dependencies, then the gateway bundle (dist/apps/gateway/main.js)
FROM node:${NODE_VERSION}-bookworm AS build
WORKDIR /src
ENV CI=true NX_DAEMON=false NX_NO_CLOUD=true NX_TUI=false NX_SKIP_NX_CACHE=true
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npx nx run gateway:build --configuration=production --output-style=static

# 2. production dependencies: the bundle is built with thirdParty: false, so the packages it requires
#    (package.json "dependencies") are loaded from node_modules at run time; no dev dependency ships
FROM node:${NODE_VERSION}-bookworm AS production-dependencies
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force

# 3. runtime: slim Node, a numeric non-root user (runAsNonRoot can check it), nothing written but /tmp
FROM node:${NODE_VERSION}-bookworm-slim AS runtime
# The MCP port on every interface; the management port (bundle state, refreshes, metrics: no token asked)
# on loopback only, where the HEALTHCHECK reaches it. Open it with MANAGEMENT_HOST=0.0.0.0 only where
# something else keeps it private (docs/deployment.md, "The management port").
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080 MANAGEMENT_PORT=9090 MANAGEMENT_HOST=127.0.0.1
WORKDIR /app
COPY --from=production-dependencies /app/node_modules ./node_modules
COPY --from=production-dependencies /app/package.json ./package.json
COPY --from=build /src/dist/apps/gateway ./dist/apps/gateway
USER 1000:1000
EXPOSE 8080 9090
# Ready means a usable catalogue (the management port's readiness); slim images have no curl, Node has fetch.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.MANAGEMENT_PORT || 9090) + '/actuator/health/readiness').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# exec form: node is PID 1 and gets SIGTERM itself, so the drain runs
ENTRYPOINT ["node", "dist/apps/gateway/main.js"]
