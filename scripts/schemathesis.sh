#!/usr/bin/env bash
# Checks a real `tally serve` against its own OpenAPI description (docs/openapi.yaml, served as GET /v1/openapi.yaml)
# with schemathesis: a server on loopback with a throw-away configuration (the Market example, a sandbox root, an
# in-app purchase key so the offer routes sign, keys made with `tally serve key`), then one bounded schemathesis run
# per key role over the routes that role may call. Checks: no 5xx (not_a_server_error), every status, content type
# and body the description documents (status_code_conformance, content_type_conformance,
# response_schema_conformance), every answer within --max-response-time. Any failure, or a server that died, exits
# non-zero. Run by `make test` (and so by .ci/run); by hand: `bash scripts/schemathesis.sh`.
# Environment: TALLY_SCHEMATHESIS_EXAMPLES (test cases per operation, default 20), TALLY_SCHEMATHESIS_SECONDS (the
# wall-clock cap of each run, default 100), TALLY_SCHEMATHESIS_SEED (a seed, to repeat a run).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
examples="${TALLY_SCHEMATHESIS_EXAMPLES:-20}"
seconds="${TALLY_SCHEMATHESIS_SECONDS:-100}"
schemathesis --version 2>/dev/null | grep -q "version 4\." \
    || { echo "schemathesis: version 4 is not installed (scripts/install-deps.sh)" >&2; exit 1; }
(cd "$root" && swift build --product tally >/dev/null)
bin="$(cd "$root" && swift build --show-bin-path)/tally"

work="$(mktemp -d /tmp/tally-schemathesis.XXXXXX)"
server_pid=""
cleanup() {
    if [[ -n "$server_pid" ]] && kill -0 "$server_pid" 2>/dev/null; then
        kill "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

cp "$root/Examples/Market/Market.storekit" "$root/Examples/Market/tally.json" "$work/"
"$bin" sandbox init --data "$work/sandbox" --config "$work/Market.storekit" >/dev/null
"$bin" sandbox root --data "$work/sandbox" >"$work/sandbox-root.pem"
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$work/SubscriptionKey_SCHEMATHES.p8" 2>/dev/null
for role in public secret dashboard; do "$bin" serve key --role "$role" --name "$role"; done >"$work/keys.json"
key() { python3 -c 'import json,sys
for line in open(sys.argv[1]):
    entry = json.loads(line)
    if entry["role"] == sys.argv[2]: print(entry["key"])' "$work/keys.json" "$1"; }
entries=$(python3 -c 'import json,sys
print(",".join(json.dumps({k: v for k, v in json.loads(line).items() if k != "key"}) for line in open(sys.argv[1])))' \
    "$work/keys.json")
# Rate limits out of reach: the runs send thousands of requests from one address. The App Store Server API's base
# URL is a closed port: reconciles of the generated customers (who have no transactions) never call it.
cat >"$work/tally-server.json" <<JSON
{
  "listen": "127.0.0.1:0",
  "storekit": "Market.storekit",
  "appConfiguration": "tally.json",
  "verification": {"environments": ["Sandbox"], "roots": ["sandbox-root.pem"]},
  "keys": [$entries],
  "rateLimit": {"requestsPerSecond": 1000000, "burst": 1000000, "publicKeyRequestsPerSecond": 1000000,
                "publicKeyBurst": 1000000, "publicKeyPerAddressRequestsPerSecond": 1000000,
                "publicKeyPerAddressBurst": 1000000, "unknownKeyRequestsPerSecond": 1000000, "unknownKeyBurst": 1000000,
                "unverifiedNotificationsPerSecond": 1000000, "unverifiedNotificationBurst": 1000000},
  "appStoreServerAPI": {"issuerId": "57246542-96fe-1a63-e053-0824d011072a", "keyId": "SCHEMATHES",
                        "privateKey": "SubscriptionKey_SCHEMATHES.p8", "environment": "Sandbox",
                        "baseURL": "http://127.0.0.1:9"},
  "offers": {"promotional": [{"offerIdentifier": "pro_comeback"}]}
}
JSON

"$bin" serve --data "$work/data" --config "$work/tally-server.json" --access-log >"$work/server.log" 2>&1 &
server_pid=$!
base=""
for _ in $(seq 1 200); do
    base="$(grep -Eo 'http://127\.0\.0\.1:[0-9]+' "$work/server.log" | head -n 1 || true)"
    [[ -n "$base" ]] && break
    kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.log" >&2; echo "schemathesis: tally serve exited" >&2; exit 1; }
    sleep 0.05
done
[[ -n "$base" ]] || { cat "$work/server.log" >&2; echo "schemathesis: tally serve did not start" >&2; exit 1; }
# The description the server serves is the one in the repository, byte for byte.
curl -sf "$base/v1/openapi.yaml" -o "$work/served.yaml"
cmp -s "$work/served.yaml" "$root/docs/openapi.yaml" \
    || { echo "schemathesis: GET /v1/openapi.yaml is not docs/openapi.yaml" >&2; exit 1; }

checks=not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance
seed=()
[[ -n "${TALLY_SCHEMATHESIS_SEED:-}" ]] && seed=(--seed "$TALLY_SCHEMATHESIS_SEED")
failed=0
# run NAME KEY FILTER…: one bounded schemathesis run with `Authorization: Bearer KEY` over the filtered operations.
run() {
    local name="$1" key="$2"
    shift 2
    echo "schemathesis: $name key" >&2
    local status=0
    # From the scratch directory: schemathesis keeps a cache (.schemathesis/) in the working directory.
    (cd "$work" && timeout --kill-after=10 "$((seconds + 20))" schemathesis run "$base/v1/openapi.yaml" --url "$base" \
        -H "Authorization: Bearer $key" --checks "$checks" --max-examples "$examples" --max-response-time 5 \
        --request-timeout 10 --workers 1 --generation-database none --no-color --output-truncate true \
        --suppress-health-check all --exclude-path /v1/dashboard/offers ${seed[@]+"${seed[@]}"} "$@") \
        || status=$?
    if ((status != 0)); then
        echo "schemathesis: the $name run failed (exit $status)" >&2
        failed=1
    fi
    kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.log" >&2; echo "schemathesis: tally serve died" >&2; exit 1; }
}
# The secret key may call every route. The public and dashboard keys: the routes of their role, where each answers
# what a secret key cannot show (a token check, a 403 for a write).
run secret "$(key secret)"
run public "$(key public)" --include-tag customers --include-tag offerings
run dashboard "$(key dashboard)" --include-tag dashboard --include-tag offerings
# The GET /v1/dashboard/offers entry waits for its route (see its comment in docs/openapi.yaml).
if grep -q 'fatal\|Fatal error' "$work/server.log"; then
    cat "$work/server.log" >&2
    failed=1
fi
# What the runs reached: requests per route and status, from the access log (`METHOD ROUTE STATUS TIME`).
echo "schemathesis: requests answered, by route and status:" >&2
awk '$3 ~ /^[0-9][0-9][0-9]$/ { count[$1 " " $2 " " $3]++ } END { for (k in count) printf "  %6d  %s\n", count[k], k }' \
    "$work/server.log" | sort -k2 >&2
exit "$failed"
