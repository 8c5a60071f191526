#!/usr/bin/env bash
# Side-by-side figures for the media step (download + libmagic validation, through a full
# pipeline) against a local nginx on 127.0.0.1:
#   1. N payloads, each with a distinct image URL, vs curl --parallel --parallel-max 64
#      downloading the same URLs to disk
#   2. a campaign: 10,000 payloads sharing 20 URLs vs curl downloading each of the 10,000
#   3. peak RSS with 64 payloads at once, each a distinct 50 MB video
# Usage: Benchmarks/media-bench.sh [N] [SIZE_KB]   (defaults 500 images of 100 KB)
# Prints figures; it is not a test.
set -euo pipefail

N=${1:-500}
SIZE_KB=${2:-100}
REQUESTS=${REQUESTS:-10000}
URLS=${URLS:-20}
BIG=${BIG:-64}

root=$(cd "$(dirname "$0")/.." && pwd)
command -v nginx >/dev/null || { echo "nginx is missing: apt-get install -y nginx-light" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/nse-media-bench-XXXXXX")
nginx_pid=""
cleanup() {
    [ -n "$nginx_pid" ] && kill "$nginx_pid" 2>/dev/null && wait "$nginx_pid" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT

echo "building MediaBenchmark (release)…"
(cd "$root" && swift build -c release --product MediaBenchmark >/dev/null)
bench="$root/.build/release/MediaBenchmark"

# Real media, padded with random bytes to size, so libmagic accepts them as JPEG and MP4.
# Each image starts with its own random comment segment, so no two share their first bytes.
mkdir -p "$work/www" "$work/curl-out" "$work/scratch" "$work/tmp"
fixtures="$root/Tests/Fixtures/media"
pad() { cat "$1"; head -c $(($2 - $(stat -c %s "$1"))) /dev/urandom; }
jpeg_size=$(stat -c %s "$fixtures/picture.jpg")
jpeg() {
    printf '\xff\xd8\xff\xfe\x00\x42'; head -c 64 /dev/urandom  # SOI, COM of 64 random bytes
    tail -c +3 "$fixtures/picture.jpg"; head -c $(($1 - jpeg_size - 68)) /dev/urandom
}
for ((i = 0; i < N; i++)); do jpeg $((SIZE_KB * 1024)) > "$work/www/img-$i.jpg"; done
pad "$fixtures/clip.mp4" 50000000 > "$work/www/big.mp4"
chmod 755 "$work" "$work/www"; chmod 644 "$work"/www/*

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat > "$work/nginx.conf" <<CONF
worker_processes 2;
pid $work/nginx.pid;
error_log $work/error.log warn;
events { worker_connections 4096; }
http {
    access_log off;
    sendfile on;
    keepalive_requests 100000;
    client_body_temp_path $work/tmp; proxy_temp_path $work/tmp; fastcgi_temp_path $work/tmp;
    uwsgi_temp_path $work/tmp; scgi_temp_path $work/tmp;
    types { image/jpeg jpg; video/mp4 mp4; }
    server { listen 127.0.0.1:$port; root $work/www; }
}
CONF
nginx -c "$work/nginx.conf" -p "$work" -g 'daemon off;' &
nginx_pid=$!
base="http://127.0.0.1:$port"
for _ in $(seq 1 50); do curl -sf -o /dev/null "$base/img-0.jpg" && break; sleep 0.1; done

now() { date +%s.%N; }
ms() { python3 -c "print(int(($2 - $1) * 1000))"; }
ratio() { python3 -c "print(round($1 / max(1, $2), 2))"; }

echo
echo "== $N payloads, each a distinct $SIZE_KB KB image =="
for ((i = 0; i < N; i++)); do
    printf 'url = "%s/img-%d.jpg"\noutput = "%s/curl-out/img-%d.jpg"\n' "$base" "$i" "$work" "$i"
done > "$work/curl.cfg"
t0=$(now); curl --fail --silent --show-error --no-progress-meter --parallel --parallel-max 64 -K "$work/curl.cfg"; t1=$(now)
curl_ms=$(ms "$t0" "$t1")
[ "$(ls "$work/curl-out" | wc -l)" -eq "$N" ] || { echo "curl did not fetch every file" >&2; exit 1; }
rm -f "$work"/curl-out/*
echo "curl --parallel --parallel-max 64: $N files in $curl_ms ms"
t0=$(now); "$bench" distinct "$base" "$N" "$work/scratch"; t1=$(now)
nse_ms=$(ms "$t0" "$t1")
echo "nse media step (whole process, incl. start-up): $nse_ms ms; ratio nse/curl $(ratio "$nse_ms" "$curl_ms")"

echo
echo "== campaign: $REQUESTS payloads sharing $URLS URLs =="
t0=$(now); "$bench" campaign "$base" "$REQUESTS" "$URLS" "$work/scratch"; t1=$(now)
campaign_ms=$(ms "$t0" "$t1")
for ((i = 0; i < REQUESTS; i++)); do
    printf 'url = "%s/img-%d.jpg?n=%d"\noutput = "%s/curl-out/%d"\n' "$base" $((i % URLS)) "$i" "$work" "$i"
done > "$work/campaign.cfg"
t0=$(now); curl --fail --silent --show-error --no-progress-meter --parallel --parallel-max 64 -K "$work/campaign.cfg"; t1=$(now)
each_ms=$(ms "$t0" "$t1")
rm -rf "$work/curl-out"; mkdir "$work/curl-out"
echo "nse media step (whole process): $campaign_ms ms"
echo "curl --parallel --parallel-max 64 downloading each of the $REQUESTS: $each_ms ms; nse is $(ratio "$each_ms" "$campaign_ms")x faster"

echo
echo "== peak RSS: $BIG payloads at once, each a distinct 50 MB video =="
/usr/bin/time -v "$bench" rss "$base" "$BIG" "$work/scratch" 2> "$work/time.txt"
grep -E "Maximum resident set size|Elapsed \(wall" "$work/time.txt" | sed 's/^\s*/\/usr\/bin\/time: /'
