#!/usr/bin/env bash
# Compares classifying a few thousand media files with nse against `file --mime-type`.
#
#   Benchmarks/sniff-bench.sh [ROUNDS]      (default 150 rounds of the fixtures: ~3,300 files)
#
# Uses `nse sniff` when a built CLI has it ($NSE, default .build/release/nse), else the
# SniffBenchmark executable (the same library call). Wall time is what a user waits; CPU time is what a busy machine cannot hide.
# Goal: nse within 1.5x of file(1)'s wall time. Also prints pooled libmagic handles against
# one handle per call. Needs file(1); uses hyperfine when installed.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-150}"

swift build -c release --product SniffBenchmark >/dev/null
# The CLI is not built here (it pulls in every plugin); build it first to benchmark it.
nse="${NSE:-.build/release/nse}"
if [ -x "$nse" ] && "$nse" sniff --help >/dev/null 2>&1; then
    sniff=("$nse" sniff)
else
    sniff=(.build/release/SniffBenchmark sniff)
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for ((i = 0; i < rounds; i++)); do
    for f in Tests/Fixtures/media/*; do
        case "$f" in *.sh) continue ;; esac
        cp "$f" "$work/$i-$(basename "$f")"
    done
done
count=$(ls "$work" | wc -l)
echo "files: $count copies of the fixtures in $work"
echo "nse:   ${sniff[*]}"
echo

if command -v hyperfine >/dev/null; then
    hyperfine --warmup 1 --runs 10 --export-json "$work.json" \
        -n "file --mime-type" "file --mime-type $work/* >/dev/null" \
        -n "nse sniff" "${sniff[*]} $work/* >/dev/null"
    python3 - "$work.json" <<'PY'
import json, sys
r = {x["command"]: x for x in json.load(open(sys.argv[1]))["results"]}
f, n = r["file --mime-type"], r["nse sniff"]
print(f"\nwall  file {f['mean']:.3f}s  nse {n['mean']:.3f}s  ratio {n['mean'] / f['mean']:.2f}x (goal <= 1.5x)")
print(f"cpu   file {f['user'] + f['system']:.3f}s  nse {n['user'] + n['system']:.3f}s  "
      f"ratio {(n['user'] + n['system']) / (f['user'] + f['system']):.2f}x")
PY
    rm -f "$work.json"
else
    TIMEFORMAT='%R s wall, %U s user'
    echo -n "file --mime-type: "; time file --mime-type "$work"/* >/dev/null
    echo -n "nse sniff:        "; time "${sniff[@]}" "$work"/* >/dev/null
fi

echo
echo "libmagic handles (magic_load is the expensive part):"
.build/release/SniffBenchmark handles
