# syntax=docker/dockerfile:1

# --- build: compile TypeScript, then keep production dependencies only ---
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json nest-cli.json ./
COPY src ./src
COPY migrations ./migrations
# The build's last steps pack the embedded database's migrated seed and bundle the service into
# dist/service (docs/performance.md, "Start-up").
COPY scripts/build-embedded-seed.mjs scripts/bundle-service.mjs ./scripts/
# The team console's front-end, built by Vite into dist/console (docs/console.md).
COPY console ./console
RUN npm run build && npm prune --omit=dev

# --- runtime: non-root, no compiler, migrations run at start under an advisory lock ---
FROM node:22-bookworm-slim
# Two malloc arenas, as `npm start` runs it: glibc's default (eight a core) keeps more resident after a burst (docs/operations.md).
ENV NODE_ENV=production \
    MALLOC_ARENA_MAX=2 \
    PORT=3000 \
    DATA_DIR=/var/lib/eid-gateway
WORKDIR /app
# Application files stay owned by root: the service user can read them but not change them.
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY bin ./bin
RUN mkdir -p /var/lib/eid-gateway && chown node:node /var/lib/eid-gateway
USER node
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/health/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Node forwards SIGTERM to the app, which drains requests and closes the pool (graceful shutdown).
# A smaller young generation and a slower-growing old one, as `npm start` runs it: memory over GC throughput (docs/operations.md).
CMD ["node", "--min-semi-space-size=8", "--max-semi-space-size=8", "--heap-growing-percent=10", "dist/service/main.js"]
