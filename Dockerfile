# Build stage: compile TypeScript with the dev toolchain.
# Node 22 is a maintained LTS (Node 20 reached its end of life in April 2026).
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# The SDK is an npm workspace: npm ci needs its manifest, npm run build its sources.
COPY sdk/package.json ./sdk/
RUN npm ci
COPY tsconfig.json tsconfig.build.json nest-cli.json ./
COPY src ./src
COPY sdk ./sdk
COPY dashboard ./dashboard
COPY portal ./portal
RUN npm run build && npm prune --omit=dev

# Runtime stage: production dependencies and the compiled app only, run by the unprivileged
# `node` user, which owns DATA_DIR (a volume mounted there starts with that ownership).
FROM node:22-bookworm-slim
ENV NODE_ENV=production DATA_DIR=/app/data
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The dashboard's Vite build, served at /dashboard (src/http/dashboard-assets.ts).
COPY --from=build /app/dashboard/dist ./dashboard/dist
# The customer portal's Vite build, served at /portal (DESIGN §19).
COPY --from=build /app/portal/dist ./portal/dist
COPY package.json ./
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3000
# The heap bound of `npm start` (package.json; a unit test keeps the two equal): docs/operations.md, "Memory".
CMD ["node", "--max-old-space-size=192", "--max-semi-space-size=32", "dist/main.js"]
