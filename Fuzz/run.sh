#!/usr/bin/env bash
# Builds the libFuzzer target and fuzzes for SECONDS (default 60): the receipt and JWS parsers, and what
# `tally serve` reads from the network (router, percent-decoding, bearer, cursor, JSON bodies, whole requests
# to the API over a SQLite store in a temporary directory). The first input byte picks the target.
# Usage: Fuzz/run.sh [SECONDS]      Exit status: 0 = no crash, 1 = crash found or build failed.
# Crash inputs are written to Fuzz/.build/fuzz-artifacts/; reproduce one with
#   Fuzz/.build/debug/TallyFuzz Fuzz/.build/fuzz-artifacts/crash-…
set -euo pipefail
seconds="${1:-60}"
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here"

swift build -c debug -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library 2>&1 \
  | grep -v "Cannot export local symbol" || true
binary="$(swift build -c debug -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library --show-bin-path)/TallyFuzz"
[[ -x "$binary" ]] || { echo "build failed: $binary missing" >&2; exit 1; }

work="$here/.build/fuzz-corpus"
artifacts="$here/.build/fuzz-artifacts"
mkdir -p "$work" "$artifacts"
cp -n "$here"/corpus/*.der "$here"/corpus/*.b64 "$here"/corpus/*.jws "$here"/corpus/*.route "$here"/corpus/*.body \
  "$here"/corpus/*.req "$work"/ 2>/dev/null || true
log="$here/.build/fuzz.log"

set +e
LSAN_OPTIONS="suppressions=$here/lsan.supp:print_suppressions=0" "$binary" "$work" \
  -max_total_time="$seconds" -max_len=16384 -timeout=10 -rss_limit_mb=2048 \
  -artifact_prefix="$artifacts/" -print_final_stats=1 >"$log" 2>&1
status=$?
set -e

execs="$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -Eo '[0-9]+$' | tail -1 || true)"
rate="$(grep -Eo 'stat::average_exec_per_sec: *[0-9]+' "$log" | grep -Eo '[0-9]+$' | tail -1 || true)"
coverage="$(grep -Eo 'cov: [0-9]+' "$log" | tail -1 || true)"
crashes="$(find "$artifacts" -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l)"
echo "fuzzed ${seconds}s: execs=${execs} (${rate}/s) ${coverage} crashes=${crashes} libFuzzer-exit=${status} log=${log}"
if [[ "$status" -ne 0 || "$crashes" -ne 0 ]]; then
  grep -E "ERROR|SUMMARY|Test unit written" "$log" | head -20 >&2
  exit 1
fi
