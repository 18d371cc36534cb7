#!/usr/bin/env bash
# Embedded-mode smoke test: the built service started with no environment but PORT (and HOST, to
# stay on loopback) in an empty directory must create the demo merchant, print its key, serve
# /docs and list the demo catalogue's five products (src/demo/demo-catalogue.ts).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
port="${SMOKE_PORT:-39$((RANDOM % 900 + 100))}"
log="$work/server.log"
cleanup() { [[ -n "${pid:-}" ]] && kill "$pid" 2>/dev/null; wait "${pid:-}" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

# Run as `npm start` runs it: with the start script's Node flags (its heap bound).
read -r -a flags <<<"$(cd "$repo" && node -r ts-node/register/transpile-only scripts/start-flags.ts)"
# HTTP_ADAPTER, when given, is the one variable passed through (CI smokes both adapters).
(cd "$work" && exec env -i PATH="$PATH" HOME="$HOME" HOST=127.0.0.1 PORT="$port" ${HTTP_ADAPTER:+HTTP_ADAPTER="$HTTP_ADAPTER"} node "${flags[@]}" "$repo/dist/main.js" >"$log" 2>&1) &
pid=$!
for _ in $(seq 1 120); do
  grep -q "API listening" "$log" 2>/dev/null && break
  kill -0 "$pid" 2>/dev/null || { cat "$log"; echo "smoke: the service exited"; exit 1; }
  sleep 0.5
done
key="$(grep -o 'eh_test_[0-9A-Za-z]*' "$log" | head -n 1)"
[[ -n "$key" ]] || { cat "$log"; echo "smoke: no demo key printed"; exit 1; }
body="$(curl -sf -H "Authorization: Bearer $key" "http://127.0.0.1:$port/v1/products")"
node -e '
const body = JSON.parse(process.argv[1]);
const storeIds = Array.isArray(body.data) ? body.data.map((product) => product.store_product_id).sort() : [];
const expected = ["sku_api_credits_100", "sku_desktop_app", "sku_ebook_42", "sku_pro_monthly", "sku_starter_bundle"];
if (JSON.stringify(storeIds) !== JSON.stringify(expected) || !body.meta || !body.meta.request_id || body.pagination.total !== expected.length) {
  console.error("smoke: unexpected products response", body); process.exit(1);
}' "$body"
curl -sf -o /dev/null "http://127.0.0.1:$port/docs/" || { echo "smoke: /docs not served"; exit 1; }
curl -sf -o /dev/null "http://127.0.0.1:$port/health/ready" || { echo "smoke: not ready"; exit 1; }
curl -sf "http://127.0.0.1:$port/dashboard/" | grep -q '<div id="root">' || { echo "smoke: /dashboard not served"; exit 1; }
grep -q '/dashboard/setup#token=' "$log" || { cat "$log"; echo "smoke: no dashboard sign-in link printed"; exit 1; }
[[ -d "$work/data/pg" ]] || { echo "smoke: embedded database not under ./data/pg"; exit 1; }
echo "smoke: embedded defaults OK on ${HTTP_ADAPTER:-express} (demo key and sign-in link printed, /v1/products 200 with the demo catalogue, /docs and /dashboard served)"
