#!/usr/bin/env bash
# Cold build time of a consumer of toolcall-contracts against a consumer of the official crate.
#
#   scripts/cold-build.sh            # one build of each
#   RUNS=3 scripts/cold-build.sh     # three of each, alternating; prints every time and the medians
#   TIMINGS=/tmp/t scripts/cold-build.sh   # also keeps cargo's --timings report of each build there
#   OURS_FEATURES=canonical scripts/cold-build.sh   # ours with these features (comma-separated)
#   OURS_FEATURES=mcp-2025-11-25 \
#     OTHER='rust-mcp-schema = { version = "=2.0.0", default-features = false, features = ["2025_11_25"] }' \
#     RUNS=3 scripts/cold-build.sh   # against another crate (a Cargo dependency line)
#
# Two scratch library crates in a temporary directory (outside this workspace):
#   ours:     toolcall-contracts = { path = "<this checkout>" }      (default features, or
#             OURS_FEATURES)
#   official: agent-client-protocol-schema = "=1.20.0"                (default features), or
#             the dependency line in OTHER
# Each gets a lock file and `cargo fetch` first, so that only compile time is timed, then
# `cargo build --offline` (dev profile) into its own fresh CARGO_TARGET_DIR, with the jobs
# cargo picks for this machine. CARGO_INCREMENTAL=0 for both: a path dependency would
# otherwise build incrementally, which a consumer taking the crate from a registry never does.
# RUSTC_WRAPPER is unset so that no compiler cache answers for rustc.
#
# Prints the seconds of each build and the ratio ours / official (target: <= 0.5), and, where
# /usr/bin/time exists, the CPU seconds (user + system) of each build: on a shared machine the
# wall clock depends on the others' load, the CPU time much less.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
runs="${RUNS:-1}"
work="$(mktemp -d "${TMPDIR:-/tmp}/cold-build.XXXXXX")"
trap 'rm -rf "$work"' EXIT
unset RUSTC_WRAPPER CARGO_BUILD_RUSTC_WRAPPER
export CARGO_INCREMENTAL=0

consumer() { # name, dependency line
  mkdir -p "$work/$1/src"
  cat >"$work/$1/Cargo.toml" <<EOF
[package]
name = "cold-build-$1"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
$2

[workspace]
EOF
  echo "// A consumer that only links the dependency." >"$work/$1/src/lib.rs"
  (cd "$work/$1" && { cargo generate-lockfile --offline -q 2>/dev/null || cargo generate-lockfile -q; } && cargo fetch -q)
}

# OURS_FEATURES=a,b becomes `features = ["a", "b"]`; empty (the default) adds nothing.
ours_features=""
if [ -n "${OURS_FEATURES:-}" ]; then
  ours_features=", features = [\"$(printf '%s' "$OURS_FEATURES" | sed 's/ //g; s/,/", "/g')\"]"
fi
consumer ours "toolcall-contracts = { path = \"$root\"$ours_features }"
other="${OTHER:-agent-client-protocol-schema = \"=1.20.0\"}"
# The other crate's name, as the dependency line starts.
other_name="${other%% *}"
consumer official "$other"

# One cold build of $1 into a fresh target directory; prints the seconds.
build() {
  local target="$work/target-$1-$2"
  rm -rf "$target"
  local start end
  start=$(date +%s.%N)
  if [ -x /usr/bin/time ]; then
    (cd "$work/$1" && CARGO_TARGET_DIR="$target" /usr/bin/time -f '%U %S' -o "$work/cpu-$1-$2" \
      cargo build --offline -q ${TIMINGS:+--timings})
  else
    (cd "$work/$1" && CARGO_TARGET_DIR="$target" cargo build --offline -q ${TIMINGS:+--timings})
  fi
  end=$(date +%s.%N)
  if [ -n "${TIMINGS:-}" ]; then
    mkdir -p "$TIMINGS"
    cp "$work/$1/target/cargo-timings/cargo-timing.html" "$TIMINGS/$1-$2.html" 2>/dev/null ||
      cp "$target/cargo-timings/cargo-timing.html" "$TIMINGS/$1-$2.html"
  fi
  rm -rf "$target"
  awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f\n", b - a }'
}

# The CPU seconds of build $1 $2 ("-" without /usr/bin/time).
cpu() { if [ -f "$work/cpu-$1-$2" ]; then awk '{ printf "%.1f", $1 + $2 }' "$work/cpu-$1-$2"; else echo -; fi; }

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(rustc --version)"
# Packages compiled for each (the scratch crate itself excluded).
packages() { (cd "$work/$1" && cargo tree --offline -e normal,build --prefix none | sed 's/ (\*)$//' | sort -u | wc -l | awk '{ print $1 - 1 }'); }
echo "toolcall-contracts features: ${OURS_FEATURES:-default}"
echo "against: $other"
echo "packages compiled: $(packages ours) for toolcall-contracts, $(packages official) for $other_name"
ours_times=()
official_times=()
ours_cpu=()
official_cpu=()
for run in $(seq 1 "$runs"); do
  t=$(build ours "$run")
  ours_times+=("$t")
  ours_cpu+=("$(cpu ours "$run")")
  printf 'run %d: %-30s %7.1f s, cpu %s s (load %s)\n' "$run" toolcall-contracts "$t" "$(cpu ours "$run")" "$(cut -d' ' -f1-3 /proc/loadavg)"
  t=$(build official "$run")
  official_times+=("$t")
  official_cpu+=("$(cpu official "$run")")
  printf 'run %d: %-30s %7.1f s, cpu %s s (load %s)\n' "$run" "$other_name" "$t" "$(cpu official "$run")" "$(cut -d' ' -f1-3 /proc/loadavg)"
done
ours=$(printf '%s\n' "${ours_times[@]}" | median)
official=$(printf '%s\n' "${official_times[@]}" | median)
# The target is the one set against the official ACP crate.
target=""
[ -z "${OTHER:-}" ] && target=" (target <= 0.50)"
printf 'cold dev build (median of %d): toolcall-contracts %.1f s, %s %.1f s, ratio %.2f%s\n' \
  "$runs" "$ours" "$other_name" "$official" "$(awk -v a="$ours" -v b="$official" 'BEGIN { print a / b }')" "$target"
if [ -x /usr/bin/time ]; then
  ours_c=$(printf '%s\n' "${ours_cpu[@]}" | median)
  official_c=$(printf '%s\n' "${official_cpu[@]}" | median)
  printf 'cpu time (median of %d): toolcall-contracts %.1f s, %s %.1f s, ratio %.2f\n' \
    "$runs" "$ours_c" "$other_name" "$official_c" "$(awk -v a="$ours_c" -v b="$official_c" 'BEGIN { print a / b }')"
fi
