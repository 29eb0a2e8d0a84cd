#!/usr/bin/env bash
# `make demo`: the whole loop on the Market example. The App Store (`tally sandbox serve`, sending App Store
# Server Notifications to the server), the app's server (`tally serve`, following the sandbox's clock) and the
# market linked to the server as customer $DEMO_USER (default demo-user), holding the backend key and the
# customer-token secret to play the app's backend for spends and customer tokens (demo only; the server requires
# a customer token for every customer, customers.requireToken). One line tells where each listens; Ctrl-C (or `quit`) stops all three.
# Data in $DEMO_DATA (default $DATA/demo, i.e. ./.tally/demo), kept between runs; `make run` uses its own.
# Ports: $SANDBOX_PORT and $PORT (default 0: free ones, printed). $TALLY: a built tally binary to use.
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
key() { python3 -c 'import json,sys
print(next(k["key"] for k in map(json.loads, open(sys.argv[1])) if k["role"] == sys.argv[2]))' "$server/keys.json" "$1"; }
[ -f "$server/customer-token.secret" ] || "$bin" serve customer-token --new-secret "$server/customer-token.secret" >/dev/null
public_key="$(key public)"
secret_key="$(key secret)"
entries=$(python3 -c 'import json,sys
print(",".join(json.dumps({k: v for k, v in json.loads(line).items() if k != "key"}) for line in open(sys.argv[1])))' \
    "$server/keys.json")

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
  "customers": {"requireToken": true, "tokenKeys": [{"alg": "HS256", "secretFile": "customer-token.secret"}]},
  "signing": {"privateKeyFile": "signing.pem"},
  "keys": [$entries]
}
JSON
"$bin" serve --data "$server" --config "$server/tally-server.json" >"$data/serve.log" 2>&1 &
pids+=($!)
api="$(listening "$data/serve.log" "tally serve: listening on " "$!")"
"$bin" sandbox set notification-url "$api/v1/notifications/apple" --data "$sandbox" >/dev/null

echo "make demo: App Store (tally sandbox serve) $app_store, notifying $api/v1/notifications/apple · server (tally serve) $api · market as customer $user (refund, advance: tally sandbox … --data $sandbox) · Ctrl-C stops all"
"$bin" market --data "$sandbox" --server "$api" --key "$public_key" --user "$user" --server-signing-key "$server_signing_key" \
    --backend-key "$secret_key" --customer-token-secret "$server/customer-token.secret" "$@"
