#!/usr/bin/env bash
# Instructions per pass of decoding the generated ACP and MCP types (benches/decode-cost), by
# callgrind: load-independent, to compare commits (the issue's "within 2 %").
#
#   scripts/decode-cost.sh                 # this checkout
#   scripts/decode-cost.sh /tmp/before     # another checkout (git worktree add /tmp/before REV)
#   PASSES=10 scripts/decode-cost.sh
#   FEATURES=checked RUNS="checked checked-jsonschema" scripts/decode-cost.sh
#                                          # a module needing run-time checks vs jsonschema alone
#
# Builds benches/decode-cost (release) against the checkout's toolcall-contracts, in a
# scratch copy when the checkout is not this one, and prints `acp|mcp  instructions per pass`.
# The corpora are this checkout's (`../shared/acp-traffic`, `tests/fixtures`), so that two
# checkouts decode the same bytes. Needs valgrind.
set -euo pipefail

here="$(cd "$(dirname "$0")/.." && pwd)"
tree="$(cd "${1:-$here}" && pwd)"
passes="${PASSES:-5}"
runs="${RUNS:-acp mcp}"
features="${FEATURES:-}"
work="$(mktemp -d "${TMPDIR:-/tmp}/decode-cost.XXXXXX")"
trap 'rm -rf "$work"' EXIT
cp -r "$here/benches/decode-cost/src" "$work/"
# The `checked` runs include this checkout's snapshot case.
sed -i "s|\.\./\.\./\.\./codegen/|$here/codegen/|g" "$work/src/main.rs"
# Without FEATURES=checked, the feature enables nothing, so that a checkout older than
# `toolcall-contracts`'s feature `checks` builds too.
drop_checked=()
[ -n "$features" ] || drop_checked=(-e 's/^checked = .*/checked = []/')
sed -e "s|path = \"../..\"|path = \"$tree\"|" "${drop_checked[@]}" \
  "$here/benches/decode-cost/Cargo.toml" > "$work/Cargo.toml"
cp "$here/Cargo.lock" "$work/Cargo.lock"
target="$here/target/decode-cost-$(printf '%s' "$tree" | sha256sum | cut -c1-12)"
CARGO_TARGET_DIR="$target" CARGO_INCREMENTAL=0 cargo build --quiet --release --offline \
  --manifest-path "$work/Cargo.toml" ${features:+--features "$features"}
binary="$target/release/toolcall-decode-cost"
echo "checkout: $tree ($(git -C "$tree" rev-parse --short HEAD 2>/dev/null || echo '?')), $passes passes"
for run in $runs; do
  collected="$(RUN=$run PASSES=$passes SHARED="$here/../shared" FIXTURES="$here/tests/fixtures" \
    valgrind --tool=callgrind --toggle-collect='toolcall_decode_cost::measured' \
    --callgrind-out-file=/dev/null "$binary" 2>&1 | sed -n 's/.*Collected : \([0-9]*\).*/\1/p')"
  printf '%-18s %12d\n' "$run" "$((collected / passes))"
done
