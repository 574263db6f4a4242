#!/usr/bin/env bash
# Installs the real protocol peers that run through `toolcall tap` (cli/tests/peers/main.rs) and that
# recorded the MCP fixtures (peers/record/): from npm, pinned by peers/package-lock.json, the
# official ACP and MCP TypeScript SDKs, @modelcontextprotocol/server-everything and
# @modelcontextprotocol/server-filesystem into peers/node_modules; from PyPI, pinned by peers/requirements.txt, the official MCP and ACP
# Python SDKs into peers/.venv. Both directories are gitignored; download caches stay in
# target/peers-cache/. Needs Node 20+ with npm and Python 3.11+. `.ci/run` calls it.
set -euo pipefail
cd "$(dirname "$0")/.."
START=$(date +%s)

. scripts/lib/pinned-install.sh
pinned_require node npm python3
pinned_caches peers

echo "== peers: npm ci (peers/package-lock.json)"
pinned_npm_ci peers
echo "== peers: Python virtual environment (peers/requirements.txt)"
pinned_venv peers/.venv peers/requirements.txt
echo "== peers installed in $(($(date +%s) - START)) s"
