#!/usr/bin/env bash
# The SDK as a user gets it: packs @entitlement-delivery/sdk with `npm pack`, installs the tarball
# into an empty project, compiles sdk/examples (the walk of every group, the token example) with
# strict settings and skipLibCheck off on TypeScript 5.x (the repository's) and 7, type-checks a
# browser-style consumer (DOM lib, no Node types) the same way, then runs both compiled walks
# against the built service (dist/, from `npm run build`) on a free loopback port and a fresh
# embedded database. Run from the repository after `npm run build`.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
log="$work/server.log"
cleanup() { [[ -n "${pid:-}" ]] && kill "$pid" 2>/dev/null; wait "${pid:-}" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
started=$SECONDS
npm_install() { local t=$SECONDS; npm install --no-audit --no-fund --prefer-offline --loglevel=error "$@" >/dev/null; echo "sdk-package: npm install $* took $((SECONDS - t)) s"; }

[[ -f "$repo/sdk/dist/index.d.ts" && -f "$repo/dist/main.js" ]] || { echo "sdk-package: run npm run build first"; exit 1; }

# 1. The tarball, installed into an empty project with what a Node user adds (@types/node).
tarball="$(cd "$repo" && npm pack --workspace=@entitlement-delivery/sdk --pack-destination "$work" --loglevel=error | tail -n 1)"
project="$work/project"
mkdir -p "$project/src" "$project/dom" "$work/ts7"
printf '{ "name": "sdk-package-check", "private": true }\n' >"$project/package.json"
(cd "$project" && npm_install "$work/$tarball" "@types/node@^20")
(cd "$work/ts7" && printf '{ "private": true }\n' >package.json && npm_install "typescript@^7")
cp "$repo"/sdk/examples/*.ts "$project/src/"

cat >"$project/tsconfig.json" <<'JSON'
{
  "compilerOptions": {
    "strict": true, "skipLibCheck": false, "noUncheckedIndexedAccess": true, "exactOptionalPropertyTypes": true,
    "module": "nodenext", "moduleResolution": "nodenext", "target": "es2022", "lib": ["es2022"], "types": ["node"],
    "rootDir": "src"
  },
  "include": ["src/*.ts"]
}
JSON
# A browser or edge consumer: Fetch types from the DOM lib, no Node types at all.
cat >"$project/dom/tsconfig.json" <<'JSON'
{
  "compilerOptions": {
    "strict": true, "skipLibCheck": false, "noEmit": true,
    "module": "esnext", "moduleResolution": "bundler", "target": "es2022", "lib": ["es2022", "dom"], "types": []
  },
  "include": ["*.ts"]
}
JSON
cat >"$project/dom/consumer.ts" <<'TS'
import { createEntitlementDeliveryClient, isApiError, verifyEntitlementToken, verifyWebhook, type EntitlementTokenClaims } from '@entitlement-delivery/sdk';
export async function signedIn(token: string): Promise<EntitlementTokenClaims | null> {
  const client = createEntitlementDeliveryClient({ baseUrl: 'https://api.example.com', apiKey: 'eh_test_x' });
  const page = await client.products.list({ limit: 5 });
  for await (const product of client.products.list()) if (product.id === page.data[0]?.id) break;
  await verifyWebhook('{}', new Headers(), 'whsec_AAAA').catch(() => null);
  try {
    return await verifyEntitlementToken(token, { jwks: 'https://api.example.com/.well-known/jwks.json', merchant: 'mer_1', mode: 'live' });
  } catch (error: unknown) {
    if (isApiError(error)) throw error;
    return null;
  }
}
TS

ts5="$repo/node_modules/typescript/bin/tsc"
ts7="$work/ts7/node_modules/typescript/bin/tsc"
for compiler in "$ts5" "$ts7"; do
  version="$(node "$compiler" --version)"
  (cd "$project" && node "$compiler" -p tsconfig.json --outDir "out-${version// /-}") || { echo "sdk-package: the walk does not compile with $version"; exit 1; }
  (cd "$project/dom" && node "$compiler" -p tsconfig.json) || { echo "sdk-package: the DOM consumer does not compile with $version"; exit 1; }
  echo "sdk-package: compiled strictly (skipLibCheck off) with $version"
done
echo "sdk-package: packed, installed and compiled in $((SECONDS - started)) s"

# 2. The built service on a free loopback port and an empty data directory.
port="$(node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")"
admin_token="sdk-walk-$(node -e "console.log(require('crypto').randomBytes(16).toString('hex'))")"
base_url="http://127.0.0.1:$port"
(cd "$work" && exec env -i PATH="$PATH" HOME="$HOME" HOST=127.0.0.1 PORT="$port" DATA_DIR="$work/data" PUBLIC_BASE_URL="$base_url" \
  ADMIN_TOKEN="$admin_token" SKIP_DEMO_SEED=true WEBHOOK_ALLOW_PRIVATE_URLS=true LOG_LEVEL=warn \
  RATE_LIMIT_READ_PER_MINUTE=10000 RATE_LIMIT_WRITE_PER_MINUTE=10000 ${HTTP_ADAPTER:+HTTP_ADAPTER="$HTTP_ADAPTER"} \
  node "$repo/dist/main.js" >"$log" 2>&1) &
pid=$!
for _ in $(seq 1 240); do
  curl -sf -o /dev/null "$base_url/health/ready" && break
  kill -0 "$pid" 2>/dev/null || { cat "$log"; echo "sdk-package: the service exited"; exit 1; }
  sleep 0.25
done
curl -sf -o /dev/null "$base_url/health/ready" || { cat "$log"; echo "sdk-package: the service never became ready"; exit 1; }

# 3. Both compiled walks against it (each creates its own merchants).
for out in "$project"/out-*; do
  (cd "$project" && EH_BASE_URL="$base_url" EH_ADMIN_TOKEN="$admin_token" node "$out/walk.js") || { tail -n 50 "$log"; echo "sdk-package: the walk failed ($(basename "$out"))"; exit 1; }
  echo "sdk-package: walk compiled by $(basename "$out" | sed 's/^out-//') passed"
done
echo "sdk-package: OK in $((SECONDS - started)) s"
