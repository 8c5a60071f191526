#!/usr/bin/env bash
# Side-by-side figures for the media step (download + libmagic validation, through a full
# pipeline) against a local nginx on 127.0.0.1:
#   1. N payloads, each with a distinct image URL, vs curl --parallel --parallel-max 64
#      downloading the same URLs to disk
#   2. a campaign: 10,000 payloads sharing 20 URLs vs curl downloading each of the 10,000
#   3. peak RSS with 64 payloads at once, each a distinct 50 MB video
# Usage: Benchmarks/media-bench.sh [N] [SIZE_KB]   (defaults 500 images of 100 KB)
# Environment: REQUESTS (10000) and URLS (20) shape the campaign; BIG (64) videos for peak RSS,
# 0 to skip; IN_FLIGHT (64): payloads in the pipeline at once in runs 1 and 2, as curl keeps 64
# transfers going (0: every payload at once).
# Prints figures; it is not a test.
set -euo pipefail

N=${1:-500}
SIZE_KB=${2:-100}
REQUESTS=${REQUESTS:-10000}
URLS=${URLS:-20}
BIG=${BIG:-64}
export IN_FLIGHT=${IN_FLIGHT:-64}

root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/Benchmarks/lib/loopback-nginx.sh"
bench_workdir media-bench

bench_build MediaBenchmark

# Real media, padded with random bytes to size, so libmagic accepts them as JPEG and MP4.
# Each image starts with its own random comment segment, so no two share their first bytes.
mkdir -p "$work/scratch"
fixtures="$root/Tests/Fixtures/media"
pad() { cat "$1"; head -c $(($2 - $(stat -c %s "$1"))) /dev/urandom; }
jpeg_size=$(stat -c %s "$fixtures/picture.jpg")
jpeg() {
    printf '\xff\xd8\xff\xfe\x00\x42'; head -c 64 /dev/urandom  # SOI, COM of 64 random bytes
    tail -c +3 "$fixtures/picture.jpg"; head -c $(($1 - jpeg_size - 68)) /dev/urandom
}
for ((i = 0; i < N; i++)); do jpeg $((SIZE_KB * 1024)) > "$work/www/img-$i.jpg"; done
pad "$fixtures/clip.mp4" 50000000 > "$work/www/big.mp4"

start_nginx "image/jpeg jpg; video/mp4 mp4;" img-0.jpg

echo
echo "== $N payloads, each a distinct $SIZE_KB KB image =="
curl_distinct "$N"
echo "curl --parallel --parallel-max 64: $N files in $curl_ms ms"
mkdir "$work/scratch/distinct"
t0=$(now); "$bench" distinct "$base" "$N" "$work/scratch/distinct"; t1=$(now)
nse_ms=$(ms "$t0" "$t1")
echo "nse media step (whole process, incl. start-up): $nse_ms ms; ratio nse/curl $(ratio "$nse_ms" "$curl_ms")"

echo
echo "== campaign: $REQUESTS payloads sharing $URLS URLs =="
mkdir "$work/scratch/campaign"
t0=$(now); "$bench" campaign "$base" "$REQUESTS" "$URLS" "$work/scratch/campaign"; t1=$(now)
campaign_ms=$(ms "$t0" "$t1")
# The floor under the campaign: only the directory each notification gets, made alone.
mkdir "$work/scratch/dirs"; "$bench" dirs - "$REQUESTS" "$work/scratch/dirs"
curl_campaign "$REQUESTS" "$URLS"
echo "nse media step (whole process): $campaign_ms ms"
echo "curl --parallel --parallel-max 64 downloading each of the $REQUESTS: $curl_ms ms; nse is $(ratio "$curl_ms" "$campaign_ms")x faster"

[ "$BIG" -gt 0 ] || exit 0
echo
echo "== peak RSS: $BIG payloads at once, each a distinct 50 MB video =="
mkdir "$work/scratch/rss"
peak_rss "$bench" rss "$base" "$BIG" "$work/scratch/rss"
