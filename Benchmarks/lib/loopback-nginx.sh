# Shared by the download and media benchmark scripts (source it; it is not run on its own):
# a private work folder removed on exit, nginx serving "$work/www" on a free port of
# 127.0.0.1, the benchmark build, timing helpers, and curl --parallel over a list of URLs.

command -v nginx >/dev/null || { echo "nginx is missing: apt-get install -y nginx-light" >&2; exit 1; }

# Nothing is deleted between phases, only at exit: on a file system without a journal (ext4 as
# some VMs run it), creating a file or directory skips the inodes freed in the last minutes one
# by one, so thousands of deletions slow down whichever side creates files next.

# bench_workdir NAME: makes "$work" (with www/, curl-out/, tmp/) and removes it, and nginx, on exit.
bench_workdir() {
    work=$(mktemp -d "${TMPDIR:-/tmp}/nse-$1-XXXXXX")
    nginx_pid=""
    trap 'bench_cleanup' EXIT
    mkdir -p "$work/www" "$work/curl-out" "$work/tmp"
}

bench_cleanup() {
    [ -n "$nginx_pid" ] && kill "$nginx_pid" 2>/dev/null && wait "$nginx_pid" 2>/dev/null
    rm -rf "$work"
}

# start_nginx "TYPES" PROBE: serves "$work/www" with the given `types { … }` body; sets
# "$base" and waits (bounded) until PROBE, a path under www, answers.
start_nginx() {
    # nginx workers run unprivileged; mktemp made the folder private.
    chmod 755 "$work" "$work/www"; chmod 644 "$work"/www/*
    local port
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
    types { $1 }
    server { listen 127.0.0.1:$port; root $work/www; }
}
CONF
    nginx -c "$work/nginx.conf" -p "$work" -g 'daemon off;' &
    nginx_pid=$!
    base="http://127.0.0.1:$port"
    for _ in $(seq 1 50); do curl -sf -o /dev/null "$base/$2" && break; sleep 0.1; done
}

# bench_build PRODUCT: builds a benchmark as nse is deployed (release, the Swift runtime and
# Foundation linked statically: about 10 ms less start-up than loading them as shared
# libraries); sets "$bench". The static build has its own build folder, since switching the
# flag in one folder rebuilds everything.
bench_build() {
    echo "building $1 (release, --static-swift-stdlib)…"
    (cd "$root" && swift build -c release --static-swift-stdlib --scratch-path .build-static --product "$1" >/dev/null)
    bench="$root/.build-static/release/$1"
}

now() { date +%s.%N; }
ms() { python3 -c "print(int(($2 - $1) * 1000))"; }
ratio() { python3 -c "print(round($1 / max(1, $2), 2))"; }

# A new, empty folder under curl-out for each curl run (kept until exit).
curl_out() {
    curl_out_dir=$(mktemp -d "$work/curl-out/$1-XXXXXX")
}

# curl_distinct N: curl --parallel fetches img-0.jpg … img-(N-1).jpg; sets "$curl_ms".
curl_distinct() {
    curl_out distinct
    for ((i = 0; i < $1; i++)); do
        printf 'url = "%s/img-%d.jpg"\noutput = "%s/img-%d.jpg"\n' "$base" "$i" "$curl_out_dir" "$i"
    done > "$work/curl.cfg"
    local t0 t1
    t0=$(now); curl --fail --silent --show-error --no-progress-meter --parallel --parallel-max 64 -K "$work/curl.cfg"; t1=$(now)
    curl_ms=$(ms "$t0" "$t1")
    [ "$(ls "$curl_out_dir" | wc -l)" -eq "$1" ] || { echo "curl did not fetch every file" >&2; exit 1; }
}

# curl_campaign REQUESTS URLS: curl --parallel fetches each of REQUESTS URLs over URLS files
# (a query string keeps them distinct); sets "$curl_ms".
curl_campaign() {
    curl_out campaign
    for ((i = 0; i < $1; i++)); do
        printf 'url = "%s/img-%d.jpg?n=%d"\noutput = "%s/%d"\n' "$base" $((i % $2)) "$i" "$curl_out_dir" "$i"
    done > "$work/campaign.cfg"
    local t0 t1
    t0=$(now); curl --fail --silent --show-error --no-progress-meter --parallel --parallel-max 64 -K "$work/campaign.cfg"; t1=$(now)
    curl_ms=$(ms "$t0" "$t1")
}

# peak_rss COMMAND…: runs it under /usr/bin/time and prints its peak RSS and wall time.
peak_rss() {
    /usr/bin/time -v "$@" 2> "$work/time.txt"
    grep -E "Maximum resident set size|Elapsed \(wall" "$work/time.txt" | sed 's/^\s*/\/usr\/bin\/time: /'
}
