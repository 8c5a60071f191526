#!/usr/bin/env bash
# Side-by-side figures for the download engine against a local nginx on 127.0.0.1:
#   1. N distinct image files: nse's Downloader vs curl --parallel --parallel-max 64
#   2. a campaign of 10,000 requests sharing 20 URLs vs fetching each
#   3. peak RSS with 64 concurrent 50 MB downloads
# Usage: Benchmarks/download-bench.sh [N] [SIZE_KB]   (defaults 500 files of 100 KB)
# Prints figures; it is not a test.
set -euo pipefail

N=${1:-500}
SIZE_KB=${2:-100}
REQUESTS=${REQUESTS:-10000}
URLS=${URLS:-20}
BIG=${BIG:-64}

root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/Benchmarks/lib/loopback-nginx.sh"
bench_workdir download-bench

bench_build DownloadBenchmark

mkdir -p "$work/nse-out"
for ((i = 0; i < N; i++)); do head -c $((SIZE_KB * 1024)) /dev/urandom > "$work/www/img-$i.jpg"; done
head -c 50000000 /dev/urandom > "$work/www/big.bin"
start_nginx "image/jpeg jpg; application/octet-stream bin;" img-0.jpg

echo
echo "== $N distinct files of $SIZE_KB KB =="
curl_distinct "$N"
echo "curl --parallel --parallel-max 64: $N files in $curl_ms ms"
t0=$(now); "$bench" distinct "$base" "$N" "$work/nse-out"; t1=$(now)
nse_ms=$(ms "$t0" "$t1")
echo "nse (whole process, incl. start-up): $nse_ms ms; ratio nse/curl $(ratio "$nse_ms" "$curl_ms")"

echo
echo "== campaign: $REQUESTS requests sharing $URLS URLs =="
"$bench" campaign "$base" "$REQUESTS" "$URLS" "$work/nse-out"
curl_campaign "$REQUESTS" "$URLS"
echo "curl --parallel --parallel-max 64 fetching each of the $REQUESTS: $curl_ms ms"

echo
echo "== peak RSS: $BIG concurrent downloads of 50 MB =="
peak_rss "$bench" rss "$base" "$BIG" "$work/nse-out"
