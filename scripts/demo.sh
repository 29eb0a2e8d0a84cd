#!/usr/bin/env bash
# `make demo`: the whole loop on the Market example. The App Store (`tally sandbox serve`, sending App Store
# Server Notifications to the server), the app's server (`tally serve`, following the sandbox's clock) and the
# market linked to the server as customer $DEMO_USER (default demo-user), holding the backend key and the
# customer-token secret to play the app's backend for spends and customer tokens (demo only; the server requires
# a customer token for every customer, customers.requireToken). One line tells where each listens; Ctrl-C (or `quit`) stops all three.
# Data in $DEMO_DATA (default $DATA/demo, i.e. ./.tally/demo), kept between runs; `make run` uses its own.
# Ports: $SANDBOX_PORT and $PORT (default 0: free ones, printed). $TALLY: a built tally binary to use.
# Offerings: the server is seeded with Examples/Market/offerings.json; $DEMO_OFFERING_AFTER seconds (default 30;
# "off": never) after the market opened, the demo switches the current offering (default <-> intro) with
# `curl -X PUT …/v1/offerings` (secret key, If-Match on the live version), and the running market shows the change
# at its next refresh (an offeringsChanged line). The answer of that PUT is in $DEMO_DATA/offerings-change.log.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
data="${DEMO_DATA:-${DATA:-./.tally}/demo}"
user="${DEMO_USER:-demo-user}"
if [ -n "${TALLY:-}" ]; then
    bin="$TALLY"
else
    (cd "$root" && swift build --product tally >/dev/null)
    bin="$(cd "$root" && swift build --show-bin-path)/tally"
fi
sandbox="$data/sandbox"
server="$data/server"
mkdir -p "$sandbox" "$server"
[ -f "$sandbox/sandbox.sqlite" ] || "$bin" sandbox init --data "$sandbox" --config "$root/Examples/Market/Market.storekit" >/dev/null
"$bin" sandbox root --data "$sandbox" >"$server/sandbox-root.pem"
if [ ! -f "$server/keys.json" ]; then
    { "$bin" serve key --role public --name app; "$bin" serve key --role secret --name backend; } >"$server/keys.json"
    chmod 600 "$server/keys.json"
fi
# The server's signing key (answers carry Tally-Signature); the market pins its public key.
if [ ! -f "$server/signing.pem" ]; then
    "$bin" serve signing-key --out "$server/signing.pem" >"$server/signing.json"
fi
server_signing_key="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["publicKey"])' "$server/signing.json")"
key() { python3 "$root/scripts/server_keys.py" key "$server/keys.json" "$1"; }
[ -f "$server/customer-token.secret" ] || "$bin" serve customer-token --new-secret "$server/customer-token.secret" >/dev/null
public_key="$(key public)"
secret_key="$(key secret)"
entries="$(python3 "$root/scripts/server_keys.py" entries "$server/keys.json")"

pids=()
stop_all() {
    trap - EXIT INT TERM
    for pid in ${pids[@]+"${pids[@]}"}; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in ${pids[@]+"${pids[@]}"}; do wait "$pid" 2>/dev/null || true; done
}
trap stop_all EXIT
trap 'exit 130' INT TERM

# The URL after `prefix` in the first line of `file` that has it, once the process printed it (30 s at most).
listening() {
    local file="$1" prefix="$2" pid="$3"
    for _ in $(seq 300); do
        if line=$(grep -m1 -F "$prefix" "$file" 2>/dev/null); then echo "${line#*"$prefix"}"; return 0; fi
        kill -0 "$pid" 2>/dev/null || { echo "make demo: it exited: $(cat "$file")" >&2; return 1; }
        sleep 0.1
    done
    echo "make demo: no '$prefix' line in $file" >&2
    return 1
}

"$bin" sandbox serve --data "$sandbox" --listen "127.0.0.1:${SANDBOX_PORT:-0}" >"$data/sandbox-serve.log" 2>&1 &
pids+=($!)
app_store="$(listening "$data/sandbox-serve.log" "App Store Server API on " "$!")"
app_store_base="${app_store%/inApps}"

cat >"$server/tally-server.json" <<JSON
{
  "listen": "127.0.0.1:${PORT:-0}",
  "storekit": "$root/Examples/Market/Market.storekit",
  "appConfiguration": "$root/Examples/Market/tally.json",
  "verification": {"environments": ["Sandbox"], "roots": ["sandbox-root.pem"]},
  "clock": {"sandboxURL": "$app_store_base"},
  "offerings": {"file": "$root/Examples/Market/offerings.json", "refreshSeconds": 5},
  "customers": {"requireToken": true, "tokenKeys": [{"alg": "HS256", "secretFile": "customer-token.secret"}]},
  "signing": {"privateKeyFile": "signing.pem"},
  "keys": [$entries]
}
JSON
"$bin" serve --data "$server" --config "$server/tally-server.json" >"$data/serve.log" 2>&1 &
pids+=($!)
api="$(listening "$data/serve.log" "tally serve: listening on " "$!")"
"$bin" sandbox set notification-url "$api/v1/notifications/apple" --data "$sandbox" >/dev/null

# The offering change: the live document read with the secret key, its current offering switched, PUT back with
# If-Match on its version (412 if another save came first: nothing changes then).
change_offering() {
    local live="$data/offerings-live.json" next="$data/offerings-next.json" version
    curl -s -H "Authorization: Bearer $secret_key" "$api/v1/offerings/document" >"$live"
    version="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["version"])' "$live")"
    python3 -c 'import json,sys
document = json.load(open(sys.argv[1]))["document"]
document["current"] = "default" if document.get("current") == "intro" else "intro"
json.dump(document, open(sys.argv[2], "w"))' "$live" "$next"
    curl -s -X PUT -H "Authorization: Bearer $secret_key" -H "If-Match: \"$version\"" \
        -H "Content-Type: application/json" --data-binary @"$next" -w '\n%{http_code}\n' "$api/v1/offerings"
}
after="${DEMO_OFFERING_AFTER:-30}"
offering_note=""
if [ "$after" != "off" ]; then
    (sleep "$after"; change_offering >"$data/offerings-change.log" 2>&1) &
    pids+=($!)
    offering_note=" · in ${after} s the demo switches the current offering with curl -X PUT $api/v1/offerings (the market shows it at its next refresh)"
fi

echo "make demo: App Store (tally sandbox serve) $app_store, notifying $api/v1/notifications/apple · server (tally serve) $api · market as customer $user (refund, advance: tally sandbox … --data $sandbox)$offering_note · Ctrl-C stops all"
"$bin" market --data "$sandbox" --server "$api" --key "$public_key" --user "$user" --server-signing-key "$server_signing_key" \
    --backend-key "$secret_key" --customer-token-secret "$server/customer-token.secret" "$@"
