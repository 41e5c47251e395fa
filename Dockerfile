# One image for every role; the compose file picks the role with `command`.
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
# The app listens on loopback by default; a container must answer on its network interface.
ENV HOST=0.0.0.0
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build
# 3000: the app (behind the balancer); 9464: /metrics with METRICS_PORT=9464, internal only.
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["npm", "run", "start:api"]
