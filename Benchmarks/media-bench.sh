#!/usr/bin/env bash
# Side-by-side figures for the media step (download + libmagic validation, through a full
# pipeline) against a local nginx on 127.0.0.1:
#   1. N payloads, each with a distinct image URL, vs curl --parallel --parallel-max 64
#      downloading the same URLs to disk
#   2. a campaign: 10,000 payloads sharing 20 URLs vs curl downloading each of the 10,000
#   3. peak RSS with 64 payloads at once, each a distinct 50 MB video
# Usage: Benchmarks/media-bench.sh [N] [SIZE_KB]   (defaults 500 images of 100 KB)
# Environment: REQUESTS (10000) and URLS (20) shape the campaign; BIG (64) videos for peak RSS,
# 0 to skip; IN_FLIGHT (64): payloads in the pipeline at once in phases 1 and 2, as curl keeps 64
# transfers going (0: every payload at once); RUNS (3) pairs of curl and nse runs for phases
# 1 and 2, alternating, with the median ratio.
# Prints figures; it is not a test.
set -euo pipefail

N=${1:-500}
SIZE_KB=${2:-100}
REQUESTS=${REQUESTS:-10000}
URLS=${URLS:-20}
BIG=${BIG:-64}
export IN_FLIGHT=${IN_FLIGHT:-64}
RUNS=${RUNS:-3}

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

# nse's own clock around the payloads, from MediaBenchmark's line ("… in 149 ms; …").
in_process_ms() { grep -o ' in [0-9]* ms' "$1" | grep -o '[0-9]*'; }
median() { python3 -c "import statistics, sys; print(round(statistics.median(map(float, sys.argv[1:])), 2))" "$@"; }

echo
echo "== $N payloads, each a distinct $SIZE_KB KB image: $RUNS runs, curl and nse alternating =="
ratios=(); in_ratios=()
for ((run = 1; run <= RUNS; run++)); do
    curl_distinct "$N"
    dir=$(mktemp -d "$work/scratch/distinct-XXXXXX")
    t0=$(now); "$bench" distinct "$base" "$N" "$dir" > "$work/nse.txt"; t1=$(now)
    nse_ms=$(ms "$t0" "$t1"); inside=$(in_process_ms "$work/nse.txt")
    ratios+=("$(ratio "$nse_ms" "$curl_ms")"); in_ratios+=("$(ratio "$inside" "$curl_ms")")
    echo "run $run: curl $curl_ms ms | nse $nse_ms ms whole process, $inside ms in-process | nse/curl ${ratios[-1]} (in-process ${in_ratios[-1]})"
done
grep -v ' in [0-9]* ms' "$work/nse.txt" || true  # any notification without its attachment
echo "median nse/curl: $(median "${ratios[@]}") whole process, $(median "${in_ratios[@]}") in-process (goal: at most 1.2)"

echo
echo "== campaign: $REQUESTS payloads sharing $URLS URLs: $RUNS runs, curl and nse alternating =="
ratios=(); in_ratios=()
for ((run = 1; run <= RUNS; run++)); do
    curl_campaign "$REQUESTS" "$URLS"
    dir=$(mktemp -d "$work/scratch/campaign-XXXXXX")
    t0=$(now); "$bench" campaign "$base" "$REQUESTS" "$URLS" "$dir" > "$work/nse.txt"; t1=$(now)
    nse_ms=$(ms "$t0" "$t1"); inside=$(in_process_ms "$work/nse.txt")
    ratios+=("$(ratio "$curl_ms" "$nse_ms")"); in_ratios+=("$(ratio "$curl_ms" "$inside")")
    echo "run $run: curl fetching each $curl_ms ms | nse $nse_ms ms whole process, $inside ms in-process | nse ${ratios[-1]}x faster (in-process ${in_ratios[-1]}x)"
done
grep -v ' in [0-9]* ms' "$work/nse.txt" || true
echo "median: nse $(median "${ratios[@]}")x faster whole process, $(median "${in_ratios[@]}")x in-process (goal: at least 10x)"
# The floor under the campaign: only the directory each notification gets, made alone.
mkdir "$work/scratch/dirs"; "$bench" dirs - "$REQUESTS" "$work/scratch/dirs"

[ "$BIG" -gt 0 ] || exit 0
echo
echo "== peak RSS: $BIG payloads at once, each a distinct 50 MB video =="
mkdir "$work/scratch/rss"
peak_rss "$bench" rss "$base" "$BIG" "$work/scratch/rss"
