#!/usr/bin/env bash
# Instructions per pass of every variant of `benches/mcp` (see BENCHMARKS.md, section "MCP"),
# counted by callgrind: `Collected` with MCP_PASSES=11 minus with MCP_PASSES=1, over 10 (the
# setup and the checks before measuring cancel out).
set -euo pipefail
cd "$(dirname "$0")/.."
# The binary cargo names for these features (not the newest file: another feature set's build
# may be newer).
bin=$(cargo bench --bench mcp --features "mcp-2025-11-25${FEATURES:+,$FEATURES}" --no-run 2>&1 \
    | sed -n 's/.*Executable .*(\(.*\))$/\1/p' | tail -1)
echo "binary: $bin (features: mcp-2025-11-25${FEATURES:+,$FEATURES})"
out=$(mktemp -d)
count() {
    MCP_RUN="$1" MCP_PASSES="$2" valgrind --tool=callgrind --callgrind-out-file="$out/cg" "$bin" 2>&1 \
        | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
for workload in ${MCP_WORKLOADS:-tools_list_50 tools_call_1k tools_call_2k tools_call_4k tools_call_8k live_everything live_messages}; do
    for variant in ${MCP_VARIANTS:-union decode_for rmcp rust_mcp_schema encode encode_rmcp encode_rust_mcp_schema}; do
        one=$(count "$workload/$variant" 1)
        eleven=$(count "$workload/$variant" 11)
        echo "$workload $variant $(( (eleven - one) / 10 ))"
    done
done
rm -rf "$out"
