#!/usr/bin/env bash
# Runs the real non-Rust consumers of the published schema bundle on the golden vectors:
# exports the bundle with the `toolcall` binary, then
#   consumers/ts: ajv verdicts and error paths, json-schema-to-typescript types checked by tsc;
#   consumers/py: Python jsonschema and jsonschema-rs verdicts and error paths,
#                 datamodel-code-generator models round-tripping the valid vectors (pydantic).
# Each consumer prints `N passed, M failed`; listed divergences (consumers/divergences.json)
# are asserted. Exits 1 when any consumer fails, 2 on a set-up error.
#
# Needs Node 20+ with npm, Python 3.11+, and the npm and PyPI registries (or warm caches). Writes
# only under target/ (work directory and download caches) and the gitignored
# consumers/ts/node_modules and consumers/py/.venv.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
WORK="$ROOT/target/consumers"
START=$(date +%s)

. scripts/lib/pinned-install.sh
pinned_require cargo node npm python3

rm -rf "$WORK"
mkdir -p "$WORK"
# Download caches stay inside target/ (target/consumers-cache/).
pinned_caches consumers

echo "== bundle"
cargo run --locked -q -p toolcall -- schemas export "$WORK/bundle" >"$WORK/bundle.sha256"
echo "  $(wc -l <"$WORK/bundle.sha256") files in target/consumers/bundle"

status=0

echo "== TypeScript: npm ci"
pinned_npm_ci consumers/ts
echo "== TypeScript: ajv, json-schema-to-typescript, tsc"
node consumers/ts/check.mjs "$WORK/bundle" tests/vectors consumers/divergences.json "$WORK" || status=$?

echo "== Python: virtual environment"
pinned_venv consumers/py/.venv consumers/py/requirements.txt
echo "== Python: jsonschema, jsonschema-rs, datamodel-code-generator + pydantic"
consumers/py/.venv/bin/python consumers/py/check.py "$WORK/bundle" tests/vectors consumers/divergences.json "$WORK" || {
  code=$?
  if [ "$status" -eq 0 ] || [ "$code" -gt "$status" ]; then status=$code; fi
}

echo "== consumers done in $(($(date +%s) - START)) s: $([ "$status" -eq 0 ] && echo ok || echo FAILED)"
exit "$status"
