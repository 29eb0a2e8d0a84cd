#!/usr/bin/env bash
# Fails when a public top-level name of what an app imports (TallyCore, Tally, TallyStoreKit, and TallyTesting in its tests) equals a top-level name
# of Apple's StoreKit (../shared/docs/storekit-interface-ios26.txt, Apple's Swift interface) or of SwiftUI (as far as
# the stand-in Tests/SwiftUIStandIn declares it): such a name makes every app file importing both say "ambiguous".
# A source scan: top-level declarations start at column 0 (the code style), attributes and modifiers first.
# Usage: scripts/check-apple-names.sh [--list]   (--list prints each module's names too)
set -euo pipefail
cd "$(dirname "$0")/.."
interface="${STOREKIT_INTERFACE:-../shared/docs/storekit-interface-ios26.txt}"
[[ -f "$interface" ]] || { echo "check-apple-names: StoreKit's interface is missing: $interface" >&2; exit 1; }

# The names declared at top level in the given files: `public`/`open` types, typealiases, functions, constants.
top_level_names() {
    grep -hE '^(@[A-Za-z_]+(\([^)]*\))? +)*((nonisolated|final|indirect|open|public) +)*(public|open) +((final|indirect|nonisolated) +)*(struct|enum|class|actor|protocol|typealias|func|let|var) +[A-Za-z_]' "$@" \
        | sed -E 's/.*(struct|enum|class|actor|protocol|typealias|func|let|var) +([A-Za-z_][A-Za-z0-9_]*).*/\2/' \
        | sort -u
}

storekit=$(top_level_names "$interface")
swiftui=$(top_level_names Tests/SwiftUIStandIn/*.swift)
apple=$(printf '%s\n%s\n' "$storekit" "$swiftui" | sort -u)
# A scan that finds almost nothing is broken, not clean.
(( $(wc -l <<<"$storekit") > 50 )) || { echo "check-apple-names: found too few StoreKit names; is the scan broken?" >&2; exit 1; }
(( $(wc -l <<<"$swiftui") > 20 )) || { echo "check-apple-names: found too few SwiftUI names; is the scan broken?" >&2; exit 1; }

status=0
for module in TallyCore Tally TallyStoreKit TallyTesting; do
    names=$(top_level_names $(find "Sources/$module" -name '*.swift'))
    [[ -n "$names" ]] || { echo "check-apple-names: no public names found in $module; is the scan broken?" >&2; exit 1; }
    [[ "${1:-}" == "--list" ]] && printf '%s: %s\n' "$module" "$(tr '\n' ' ' <<<"$names")"
    clashes=$(comm -12 <(printf '%s\n' "$names") <(printf '%s\n' "$apple"))
    if [[ -n "$clashes" ]]; then
        echo "check-apple-names: $module declares Apple's top-level names (StoreKit or SwiftUI): $(tr '\n' ' ' <<<"$clashes")" >&2
        status=1
    else
        echo "check-apple-names: $module: $(wc -l <<<"$names") public top-level names, none of StoreKit's $(wc -l <<<"$storekit") or SwiftUI's $(wc -l <<<"$swiftui")"
    fi
done
exit $status
