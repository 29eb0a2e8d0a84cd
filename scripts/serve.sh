#!/usr/bin/env bash
# `make serve`: the entitlement server on the Market example, trusting the sandbox's signing root, so that
# purchases made with `tally sandbox buy --data ./.tally` (or `make run`) can be posted to it by hand.
# Data in ./.tally (or $DATA): the sandbox in it, the server's database and keys in $DATA/server. Prints the keys
# (public, secret, dashboard) and the dashboard's URL.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
data="${DATA:-./.tally}"
(cd "$root" && swift build --product tally >/dev/null)
bin="$(cd "$root" && swift build --show-bin-path)/tally"
[ -f "$data/sandbox.sqlite" ] || [ -f "$data/sandbox.json" ] || "$bin" sandbox init --data "$data" --config "$root/Examples/Market/Market.storekit" >/dev/null
server="$data/server"
mkdir -p "$server"
"$bin" sandbox root --data "$data" >"$server/sandbox-root.pem"
if [ ! -f "$server/keys.json" ]; then
    { "$bin" serve key --role public --name app; "$bin" serve key --role secret --name backend; } >"$server/keys.json"
    chmod 600 "$server/keys.json"
fi
# A dashboard key (read-only), added to a keys.json made before the dashboard existed.
if ! grep -q '"role":"dashboard"' "$server/keys.json"; then
    "$bin" serve key --role dashboard --name dashboard >>"$server/keys.json"
fi
entries="$(python3 "$root/scripts/server_keys.py" entries "$server/keys.json")"
cat >"$server/tally-server.json" <<JSON
{
  "listen": "127.0.0.1:${PORT:-8080}",
  "storekit": "$root/Examples/Market/Market.storekit",
  "appConfiguration": "$root/Examples/Market/tally.json",
  "verification": {"environments": ["Sandbox"], "roots": ["sandbox-root.pem"]},
  "keys": [$entries]
}
JSON
echo "API keys (also in $server/keys.json):" >&2
python3 -c 'import json,sys
for line in open(sys.argv[1]): k = json.loads(line); print("  %-9s %s" % (k["role"], k["key"]), file=sys.stderr)' "$server/keys.json"
echo "Dashboard: http://127.0.0.1:${PORT:-8080}/dashboard/ (log in with the dashboard key above)" >&2
exec "$bin" serve --data "$server" --config "$server/tally-server.json" "$@"
