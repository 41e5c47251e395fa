# One image for every role; the compose file picks the role with `command`
# (node dist/server/<role>.js). Two stages: the build has the dev dependencies (Vite, esbuild,
# TypeScript) and compiles the client and the server; the runtime has the production
# dependencies and the compiled output only, and runs as the unprivileged `node` user.
# CI replays these steps without a Docker engine (tests/process/image.test.ts).

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
# The app listens on loopback by default; a container must answer on its network interface.
ENV HOST=0.0.0.0
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
# 1000 is the image's `node` user, who owns the data directory (PGlite, uploads).
RUN mkdir -p /app/data && chown 1000:1000 /app/data
USER node
# 3000: the app (behind the balancer); 9464: /metrics with METRICS_PORT=9464, internal only.
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# Node itself is the process that gets SIGTERM (no npm, no tsx in between); compose adds an init
# (`init: true`) that reaps children and forwards signals.
CMD ["node", "dist/server/api.js"]
