#!/usr/bin/env bash
# `make tour`: a short scripted tour of the simulated App Store on the Market example.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product tally >/dev/null
bin="$(swift build --show-bin-path)/tally"
data="${TALLY_TOUR_DATA:-./.tally-tour}"
rm -rf "$data"

step() { printf '\n\033[1m$ tally %s\033[0m\n' "$*"; "$bin" "$@" || echo "(exit $?)"; }

step sandbox init --data "$data" --config Examples/Market/Market.storekit --start 2026-01-01T09:00:00Z
step sandbox products --data "$data"
step sandbox products --data "$data" --locale es_ES --ids market.coins.10,market.premium,market.unknown
step sandbox buy market.coins.10 --data "$data"
step sandbox buy market.coins.10 --data "$data"
step sandbox buy market.premium --data "$data"
step sandbox state --data "$data"
step sandbox restore --data "$data" --device ipad
step sandbox fail purchase user-cancelled --data "$data"
step sandbox buy market.removeads --data "$data"
step sandbox set ask-to-buy on --data "$data" --account kid
step sandbox buy market.coins.100 --data "$data" --account kid
pending=$("$bin" sandbox history --data "$data" --account kid --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["pending"][0]["purchaseId"])')
step sandbox approve "$pending" --data "$data"
step sandbox state --data "$data" --account kid
step sandbox buy market.pro.monthly --data "$data"
step sandbox advance 1M --data "$data"
step sandbox advance 1M --data "$data"
step sandbox auto-renew market.pro.monthly off --data "$data"
step sandbox advance 1M --data "$data"
step sandbox state --data "$data"
echo
echo "The tour's store is in $data; try 'tally sandbox help' with --data $data."
