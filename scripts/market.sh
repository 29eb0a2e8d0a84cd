#!/usr/bin/env bash
# `make run`: the interactive market on the Market example, with its data in ./.tally (or $DATA).
# In another terminal, play the App Store on the same data: tally sandbox approve|refund|advance --data ./.tally
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
data="${DATA:-./.tally}"
(cd "$root" && swift build --product tally >/dev/null)
bin="$(cd "$root" && swift build --show-bin-path)/tally"
# --config only creates the sandbox; an existing one (with its clock and purchases) is kept.
config=()
[ -f "$data/sandbox.sqlite" ] || [ -f "$data/sandbox.json" ] || config=(--config "$root/Examples/Market/Market.storekit")
exec "$bin" market --data "$data" "${config[@]}" "$@"
