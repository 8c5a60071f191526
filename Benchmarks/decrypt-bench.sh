#!/bin/sh
# Decryptions per CPU second: the decrypt plugin (Swift, release build) against Python's
# `cryptography` on the same vectors, and against the bare P-256 key agreement. CPU time, not
# wall time, so that other work on the machine does not tilt the comparison.
#   Benchmarks/decrypt-bench.sh [seconds-per-measurement]
# Needs: python3 with `cryptography` (pip install cryptography).
set -eu
cd "$(dirname "$0")/.."
seconds="${1:-2}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

swift build -c release --product DecryptBenchmark >&2
python3 Benchmarks/decrypt-bench.py make "$work/vectors.json"
bench="$(swift build -c release --show-bin-path)/DecryptBenchmark"
# Two alternations of each side; the report keeps each figure's best run.
swift_runs=""
python_runs=""
for round in 1 2; do
    swift_runs="$swift_runs$("$bench" "$work/vectors.json" "$seconds")
"
    python_runs="$python_runs$(python3 Benchmarks/decrypt-bench.py run "$work/vectors.json" "$seconds")
"
done

python3 - "$swift_runs" "$python_runs" <<'PY'
import json, sys
def best(lines):
    runs = [json.loads(line) for line in lines.splitlines() if line.strip()]
    return {key: max(run[key] for run in runs) for key in runs[0]}
s, p = best(sys.argv[1]), best(sys.argv[2])
print("3 KB payloads, decryptions per CPU second (higher is better)")
print(f"  P-256 key agreement alone (Swift)   {s['agreement']:>12,.0f}")
print(f"  WebPush aes128gcm     Swift         {s['webpush']:>12,.0f}")
print(f"                        Python        {p['webpush']:>12,.0f}")
print(f"  JWE dir A256GCM       Swift         {s['jwe']:>12,.0f}")
print(f"                        Python        {p['jwe']:>12,.0f}")
print(f"  decrypt step, payload to content    {s['webpushStep']:>12,.0f}   (WebPush, Swift)")
wp, jw = s["webpush"] / p["webpush"], s["jwe"] / p["jwe"]
floor = s["agreement"] / s["webpush"]
print()
print(f"  WebPush: {wp:.2f}x Python (goal >= 1.5x), {floor:.2f}x the key agreement's time (goal <= 1.3x)")
print(f"  JWE dir: {jw:.2f}x Python (goal >= 5x)")
PY
