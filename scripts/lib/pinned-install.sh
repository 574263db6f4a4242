# Installs pinned npm and PyPI packages the same way for every script that needs them
# (consumers/run.sh, peers/install.sh). Source it from the repository root:
#   . scripts/lib/pinned-install.sh
#   pinned_require node npm python3     # exits 2 naming a missing tool
#   pinned_caches NAME                  # download caches under target/NAME-cache/
#   pinned_npm_ci DIR                   # npm ci from DIR/package-lock.json
#   pinned_venv DIR/.venv REQUIREMENTS  # python3 -m venv (once), pip install -r REQUIREMENTS
# Nothing is written outside target/ and the gitignored node_modules/ and .venv/ directories.

pinned_require() {
  local tool
  for tool in "$@"; do
    if ! command -v "$tool" >/dev/null 2>&1; then
      echo "$0: \`$tool\` not found" >&2
      exit 2
    fi
  done
}

pinned_caches() {
  local cache="$PWD/target/$1-cache"
  mkdir -p "$cache/npm" "$cache/pip"
  export npm_config_cache="$cache/npm"
  export PIP_CACHE_DIR="$cache/pip"
  export PIP_DISABLE_PIP_VERSION_CHECK=1
}

pinned_npm_ci() {
  (cd "$1" && npm ci --no-audit --no-fund --loglevel=error)
}

pinned_venv() {
  local venv=$1 requirements=$2
  if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
  fi
  "$venv/bin/python" -m pip install -q --require-virtualenv -r "$requirements"
}
