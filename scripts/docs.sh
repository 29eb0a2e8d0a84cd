#!/usr/bin/env bash
# `make docs`: the DocC documentation of the public modules as one static site in .build/docs (open
# .build/docs/index.html through any static file server; `docc preview` is not needed). No SwiftPM plugin:
# `swift package dump-symbol-graph` (built into SwiftPM) extracts the symbol graphs from the debug build, then the
# toolchain's `docc` converts each module with its catalog (Sources/<Module>/<Module>.docc) and
# `--warnings-as-errors`, so an unresolved ``Symbol`` link or an undocumented parameter fails the build, and
# `docc merge` joins the archives into one site.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
modules=(Tally TallyCore TallyServer TallyVerify TallyTesting TallySandboxTesting)
docc="${DOCC:-$(command -v docc || echo "$(dirname "$(readlink -f "$(command -v swift)")")/docc")}"
[ -x "$docc" ] || { echo "docs: no docc in the toolchain ($docc)" >&2; exit 1; }
work="$root/.build/docs-work"
out="$root/.build/docs"
rm -rf "$work" "$out"
mkdir -p "$work"

swift package dump-symbol-graph --minimum-access-level public --skip-synthesized-members >"$work/symbol-graph.log" 2>&1 \
    || { cat "$work/symbol-graph.log" >&2; exit 1; }
graphs=$(sed -n 's/^Files written to //p' "$work/symbol-graph.log" | tail -1)
[ -d "$graphs" ] || { echo "docs: no symbol graphs ($graphs)" >&2; cat "$work/symbol-graph.log" >&2; exit 1; }

archives=()
for module in "${modules[@]}"; do
    mkdir -p "$work/graphs/$module"
    cp "$graphs/$module.symbols.json" "$work/graphs/$module/"
    cp "$graphs/$module@"*.symbols.json "$work/graphs/$module/" 2>/dev/null || true
    catalog=()
    [ -d "Sources/$module/$module.docc" ] && catalog=("Sources/$module/$module.docc")
    "$docc" convert "${catalog[@]}" \
        --additional-symbol-graph-dir "$work/graphs/$module" \
        --output-path "$work/$module.doccarchive" \
        --fallback-display-name "$module" --fallback-bundle-identifier "org.tally.$module" \
        --transform-for-static-hosting --warnings-as-errors >"$work/$module.log" 2>&1 \
        || { cat "$work/$module.log" >&2; echo "docs: $module has DocC warnings (above)" >&2; exit 1; }
    archives+=("$work/$module.doccarchive")
done
"$docc" merge "${archives[@]}" --output-path "$work/site.doccarchive" \
    --synthesized-landing-page-name "Tally" >"$work/merge.log" 2>&1 || { cat "$work/merge.log" >&2; exit 1; }
mv "$work/site.doccarchive" "$out"
echo "docs: ${modules[*]} in $out (no DocC warnings)"
