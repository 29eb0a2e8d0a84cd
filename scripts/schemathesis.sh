#!/usr/bin/env bash
# Checks a real `tally serve` against its own OpenAPI description (docs/openapi.yaml, served as GET /v1/openapi.yaml)
# with schemathesis: a server on loopback with a throw-away configuration (the Market example, keys made with
# `tally serve key`, a `tally sandbox serve` as its App Store: its root, its App Store Server API for reconciliation,
# its in-app purchase key signing offers, its notifications), a customer with purchases of every kind, then one
# bounded schemathesis run per key role over the routes that role may call. Checks: no 5xx (not_a_server_error), every
# status, content type, body and header the description documents (status_code_conformance, content_type_conformance,
# response_schema_conformance, response_headers_conformance), every answer within --max-response-time. Any failure,
# or a server that died, exits non-zero. Run by `make test` (and so by .ci/run); by hand: `make schemathesis`.
# Environment: TALLY_SCHEMATHESIS_EXAMPLES (test cases per operation, default 20), TALLY_SCHEMATHESIS_SECONDS (the
# wall-clock cap of the whole script, default 300; a run still going then is stopped and fails), TALLY_SCHEMATHESIS_SEED
# (a seed, to repeat a run). About 45 s with the defaults.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
examples="${TALLY_SCHEMATHESIS_EXAMPLES:-20}"
seconds="${TALLY_SCHEMATHESIS_SECONDS:-300}"
schemathesis --version 2>/dev/null | grep -q "version 4\." \
    || { echo "schemathesis: version 4 is not installed (scripts/install-deps.sh)" >&2; exit 1; }
(cd "$root" && swift build --product tally >/dev/null)
bin="$(cd "$root" && swift build --show-bin-path)/tally"
SECONDS=0  # the cap counts from here: the build above may be a first one

work="$(mktemp -d /tmp/tally-schemathesis.XXXXXX)"
server_pid=""
sandbox_pid=""
stop() {
    if [[ -n "$1" ]] && kill -0 "$1" 2>/dev/null; then
        kill "$1" 2>/dev/null || true
        wait "$1" 2>/dev/null || true
    fi
}
cleanup() {
    stop "$server_pid"
    stop "$sandbox_pid"
    rm -rf "$work"
}
trap cleanup EXIT
# wait_for_url LOG PID WHAT: the first http://127.0.0.1:PORT the process writes to LOG (within 30 s).
wait_for_url() {
    local url=""
    for _ in $(seq 1 600); do
        url="$(grep -Eo 'http://127\.0\.0\.1:[0-9]+' "$1" | head -n 1 || true)"
        [[ -n "$url" ]] && { echo "$url"; return; }
        kill -0 "$2" 2>/dev/null || break
        sleep 0.05
    done
    cat "$1" >&2
    echo "schemathesis: $3 did not start" >&2
    exit 1
}

# The App Store: a sandbox directory, its App Store Server API served by `tally sandbox serve` (reconciliation reads
# it; its in-app purchase key signs the offers), delivering its notifications to the server.
cp "$root/Examples/Market/Market.storekit" "$root/Examples/Market/tally.json" "$work/"
sandbox=(--data "$work/sandbox")
"$bin" sandbox init --config "$work/Market.storekit" "${sandbox[@]}" >/dev/null
"$bin" sandbox root "${sandbox[@]}" >"$work/sandbox-root.pem"
"$bin" sandbox api-key --json "${sandbox[@]}" >"$work/api-key.json"
"$bin" sandbox serve --listen 127.0.0.1:0 "${sandbox[@]}" >"$work/sandbox.log" 2>&1 &
sandbox_pid=$!
apple="$(wait_for_url "$work/sandbox.log" "$sandbox_pid" "tally sandbox serve")"
for role in public secret dashboard; do "$bin" serve key --role "$role" --name "$role"; done >"$work/keys.json"
key() { python3 "$root/scripts/server_keys.py" key "$work/keys.json" "$1"; }
# The Market example with the sandbox's root and App Store Server API, the promotional offer of its catalog, and rate
# limits out of reach (the runs send thousands of requests from one address).
python3 - "$work" "$apple" "$(python3 "$root/scripts/server_keys.py" entries "$work/keys.json")" <<'PY'
import json, sys
work, apple, entries = sys.argv[1], sys.argv[2], json.loads("[" + sys.argv[3] + "]")
key = json.load(open(f"{work}/api-key.json"))
unlimited = {name: 1000000 for name in [
    "requestsPerSecond", "burst", "publicKeyRequestsPerSecond", "publicKeyBurst",
    "publicKeyPerAddressRequestsPerSecond", "publicKeyPerAddressBurst", "unknownKeyRequestsPerSecond",
    "unknownKeyBurst", "unverifiedNotificationsPerSecond", "unverifiedNotificationBurst"]}
configuration = {
    "listen": "127.0.0.1:0", "storekit": "Market.storekit", "appConfiguration": "tally.json",
    "verification": {"environments": ["Sandbox"], "roots": ["sandbox-root.pem"]},
    "keys": entries, "rateLimit": unlimited,
    "appStoreServerAPI": {"issuerId": key["issuerId"], "keyId": key["keyId"], "privateKey": key["privateKeyPath"],
                          "environment": "Sandbox", "baseURL": apple},
    "offers": {"promotional": [{"offerIdentifier": "pro_comeback"}]},
}
json.dump(configuration, open(f"{work}/tally-server.json", "w"), indent=2)
PY
"$bin" serve --data "$work/data" --config "$work/tally-server.json" --access-log >"$work/server.log" 2>&1 &
server_pid=$!
base="$(wait_for_url "$work/server.log" "$server_pid" "tally serve")"
# The description the server serves is the one in the repository, byte for byte.
curl -sf "$base/v1/openapi.yaml" -o "$work/served.yaml"
cmp -s "$work/served.yaml" "$root/docs/openapi.yaml" \
    || { echo "schemathesis: GET /v1/openapi.yaml is not docs/openapi.yaml" >&2; exit 1; }

# Purchases of every kind for `user-1` (the description's example customer), signed by the sandbox and posted with the
# public key, one refunded and its notification delivered: the answers about that customer (its state, history,
# spends, reconciliation, the dashboard's lists and counts) carry every part of their schemas, not only empty lists.
"$bin" sandbox set notification-url "$base/v1/notifications/apple" "${sandbox[@]}" >/dev/null
for product in market.pro.monthly market.premium market.coins.100 market.seasonpass market.removeads; do
    "$bin" sandbox buy "$product" --account user-1 "${sandbox[@]}" >/dev/null
done
refunded="$("$bin" sandbox history --account user-1 --json "${sandbox[@]}" | python3 -c 'import json,sys
print(next(t["transaction"]["transactionId"] for t in json.load(sys.stdin)["transactions"]
           if t["transaction"]["productId"] == "market.removeads"))')"
"$bin" sandbox history --account user-1 --json "${sandbox[@]}" | python3 -c 'import json,sys
for t in json.load(sys.stdin)["transactions"]: print(t["signedTransactionInfo"])' >"$work/signed.txt"
"$bin" sandbox refund "$refunded" "${sandbox[@]}" >/dev/null
public_key="$(key public)"
while read -r jws; do
    status="$(curl -s -o "$work/posted.json" -w '%{http_code}' -H "Authorization: Bearer $public_key" \
        -H 'Content-Type: application/json' --data "{\"signedTransaction\":\"$jws\"}" "$base/v1/customers/user-1/transactions")"
    [[ "$status" == 200 ]] || { cat "$work/posted.json" >&2; echo "schemathesis: seeding a purchase: HTTP $status" >&2; exit 1; }
done <"$work/signed.txt"
# The sandbox delivers its notifications (the purchases' and the refund's) on its own: wait for them (10 s at most).
for _ in $(seq 1 100); do
    grep -q 'POST /v1/notifications/apple 200' "$work/server.log" && break
    sleep 0.1
done

checks=not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance,response_headers_conformance
seed=()
[[ -n "${TALLY_SCHEMATHESIS_SEED:-}" ]] && seed=(--seed "$TALLY_SCHEMATHESIS_SEED")
failed=0
# run NAME EXAMPLES OPTION…: one bounded schemathesis run, EXAMPLES test cases per operation and phase, with the
# options given (the key's header, the operations' filter).
run() {
    local name="$1" count="$2"
    shift 2
    echo "schemathesis: $name" >&2
    local status=0 left=$((seconds - SECONDS))
    ((left > 0)) || { echo "schemathesis: no time left for the $name run (TALLY_SCHEMATHESIS_SECONDS=$seconds)" >&2; exit 1; }
    # From the scratch directory: schemathesis keeps a cache (.schemathesis/) in the working directory.
    (cd "$work" && timeout --kill-after=10 "$left" schemathesis run "$base/v1/openapi.yaml" --url "$base" \
        --checks "$checks" --max-examples "$count" --max-response-time 5 --request-timeout 10 --workers 1 \
        --generation-database none --no-color --output-truncate true --suppress-health-check all \
        ${seed[@]+"${seed[@]}"} "$@") \
        || status=$?
    if ((status != 0)); then
        echo "schemathesis: the $name run failed (exit $status)" >&2
        failed=1
    fi
    kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.log" >&2; echo "schemathesis: tally serve died" >&2; exit 1; }
}
bearer() { echo "Authorization: Bearer $(key "$1")"; }
# The secret key may call every route. The public and dashboard keys: the routes of their role, where each answers
# what a secret key cannot show (a token check, a 403 for a write). No key: every route's 401 (a few cases each).
run "secret key" "$examples" -H "$(bearer secret)"
run "public key" "$examples" -H "$(bearer public)" --include-tag customers --include-tag offerings
run "dashboard key" "$examples" -H "$(bearer dashboard)" --include-tag dashboard --include-tag offerings
run "no key" 5 --phases examples,fuzzing
if grep -q 'fatal\|Fatal error' "$work/server.log"; then
    cat "$work/server.log" >&2
    failed=1
fi
# What the runs reached, from the access log (`tally serve: METHOD ROUTE STATUS TIME`): a line per route and method
# with its statuses and counts (405s to methods no route answers left out).
echo "schemathesis: requests answered by tally serve, per route, method and status:" >&2
awk '$1 == "tally" && $5 ~ /^[0-9][0-9][0-9]$/ && $5 != "405" { count[$4 " " $3 " " $5]++ }
     END { for (k in count) print k, count[k] }' "$work/server.log" | sort | awk '
    { key = $1 " " $2; if (key != last) { if (last != "") print line; line = sprintf("  %-50s", key); last = key }
      line = line " " $3 "×" $4; total += $4 }
    END { if (last != "") print line; printf "  %d requests\n", total }' >&2
exit "$failed"
