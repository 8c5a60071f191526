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
command -v nginx >/dev/null || { echo "nginx is missing: apt-get install -y nginx-light" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/nse-download-bench-XXXXXX")
nginx_pid=""
cleanup() {
    [ -n "$nginx_pid" ] && kill "$nginx_pid" 2>/dev/null && wait "$nginx_pid" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT

echo "building DownloadBenchmark (release)…"
(cd "$root" && swift build -c release --product DownloadBenchmark >/dev/null)
bench="$root/.build/release/DownloadBenchmark"

mkdir -p "$work/www" "$work/curl-out" "$work/nse-out" "$work/tmp"
for ((i = 0; i < N; i++)); do head -c $((SIZE_KB * 1024)) /dev/urandom > "$work/www/img-$i.jpg"; done
head -c 50000000 /dev/urandom > "$work/www/big.bin"
# nginx workers run unprivileged; mktemp made the directory private.
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
    types { image/jpeg jpg; application/octet-stream bin; }
    server { listen 127.0.0.1:$port; root $work/www; }
}
CONF
nginx -c "$work/nginx.conf" -p "$work" -g 'daemon off;' &
nginx_pid=$!
base="http://127.0.0.1:$port"
for _ in $(seq 1 50); do curl -sf -o /dev/null "$base/img-0.jpg" && break; sleep 0.1; done

now() { date +%s.%N; }
ms() { python3 -c "print(int(($2 - $1) * 1000))"; }

echo
echo "== $N distinct files of $SIZE_KB KB =="
for ((i = 0; i < N; i++)); do
    printf 'url = "%s/img-%d.jpg"\noutput = "%s/curl-out/img-%d.jpg"\n' "$base" "$i" "$work" "$i"
done > "$work/curl.cfg"
t0=$(now); curl --fail --silent --show-error --no-progress-meter --parallel --parallel-max 64 -K "$work/curl.cfg"; t1=$(now)
curl_ms=$(ms "$t0" "$t1")
[ "$(ls "$work/curl-out" | wc -l)" -eq "$N" ] || { echo "curl did not fetch every file" >&2; exit 1; }
rm -f "$work"/curl-out/*
echo "curl --parallel --parallel-max 64: $N files in $curl_ms ms"
t0=$(now); "$bench" distinct "$base" "$N" "$work/nse-out"; t1=$(now)
nse_ms=$(ms "$t0" "$t1")
echo "nse (whole process, incl. start-up): $nse_ms ms; ratio nse/curl $(python3 -c "print(round($nse_ms / max(1, $curl_ms), 2))")"

echo
echo "== campaign: $REQUESTS requests sharing $URLS URLs =="
"$bench" campaign "$base" "$REQUESTS" "$URLS" "$work/nse-out"
for ((i = 0; i < REQUESTS; i++)); do
    printf 'url = "%s/img-%d.jpg?n=%d"\noutput = "%s/curl-out/%d"\n' "$base" $((i % URLS)) "$i" "$work" "$i"
done > "$work/campaign.cfg"
t0=$(now); curl --fail --silent --show-error --no-progress-meter --parallel --parallel-max 64 -K "$work/campaign.cfg"; t1=$(now)
rm -rf "$work/curl-out"; mkdir "$work/curl-out"
echo "curl --parallel --parallel-max 64 fetching each of the $REQUESTS: $(ms "$t0" "$t1") ms"

echo
echo "== peak RSS: $BIG concurrent downloads of 50 MB =="
/usr/bin/time -v "$bench" rss "$base" "$BIG" "$work/nse-out" 2> "$work/time.txt"
grep -E "Maximum resident set size|Elapsed \(wall" "$work/time.txt" | sed 's/^\s*/\/usr\/bin\/time: /'
