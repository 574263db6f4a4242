#!/usr/bin/env bash
# Instructions per pass of wire-bench variants, counted by callgrind (load-independent: the
# primary figure on a shared machine). Builds the bench binary first.
#
#   scripts/count-instructions.sh                        # the tracked variants, --features simd
#   FEATURES= scripts/count-instructions.sh session_update/decode/ours   # without simd
#   PASSES=10 scripts/count-instructions.sh escape_dense/encode/ours route_body/decode
#   CONSUMER=1 scripts/count-instructions.sh             # the route body in benches/consumer
#
# Variant names as the bench summaries print them (`session_update/...`, `escape_dense/...`,
# `route_body/...`; with CONSUMER=1 the names of benches/consumer/benches/route.rs). Prints
# `variant  instructions per pass`. A session_update or escape_dense pass is the whole corpus
# (907,994 and about 580,000 bytes); a route_body pass is one body. Needs valgrind.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
features="${FEATURES-simd}"
feature_args=()
[ -n "$features" ] && feature_args=(--features "$features")

executable() { # cargo bench arguments...
  cargo bench --locked "$@" --no-run --message-format=json 2>/dev/null |
    python3 -c 'import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and "bench" in m["target"]["kind"]:
        print(m["executable"])' | tail -1
}

cd "$root"
if [ -n "${CONSUMER:-}" ]; then
  binary="$(executable --manifest-path benches/consumer/Cargo.toml --target-dir target "${feature_args[@]}")"
  passes="${PASSES:-1000}"
  toggle='route::variants::{{closure}}*'
  run_var=ROUTE_RUN passes_var=ROUTE_PASSES
  [ $# -gt 0 ] || set -- "decode+validate_call_key+validate_schema_pin" \
    "from_slice+validate_call_key+validate_schema_pin" decode from_slice decode/ignored_any
else
  binary="$(executable --bench wire "${feature_args[@]}")"
  passes="${PASSES:-5}"
  toggle='wire::*variants::{{closure}}*'
  run_var=WIRE_RUN passes_var=WIRE_PASSES
  if [ $# -eq 0 ]; then
    set -- session_update/decode/ours session_update/decode/official \
      session_update/decode/ignored_any session_update/encode/ours session_update/encode/official \
      escape_dense/encode/ours escape_dense/encode/official \
      "route_body/decode+validate_call_key+validate_schema_pin"
    if [[ ",$features," == *,simd,* ]]; then
      set -- "$@" session_update/decode/ours_without_simd session_update/decode/ignored_any_simd
    fi
  fi
fi
echo "binary: $binary (features: ${features:-none}), $passes passes per variant"
for variant in "$@"; do
  collected="$(env "$run_var=$variant" "$passes_var=$passes" valgrind --tool=callgrind \
    --toggle-collect="$toggle" --callgrind-out-file=/dev/null "$binary" 2>&1 |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p')"
  printf '%-60s %12d\n' "$variant" "$((collected / passes))"
done
