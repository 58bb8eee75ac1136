#!/usr/bin/env bash
# How fast URLs are probed over a realistic network, against the other ways to get a size or
# the bytes: nginx on loopback serves a corpus over http/1.1 and over https with h2, each behind
# Benchmarks/latency-proxy.py (a round trip, and one link's bandwidth that every connection
# shares), and each client probes every file. Prints a table of wall-clock time, the URLs
# answered with a format, and what nginx saw: requests, distinct connections, protocol.
#   Benchmarks/network-speed.sh [CORPUS_DIR]
# Environment: IMAGEPROBE (the command, default .build/release/imageprobe), IMAGEPROBE_LIBRARY
# (libimageprobe.so for the Python run, default .build/c/libimageprobe.so), RTT_MS (default 50),
# MBIT (default 20), WINDOW_KB (default 256). Nothing is built here: a missing piece is a row
# that says so.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
corpus=$(cd "${1:-../shared/corpus}" && pwd)
imageprobe=$(realpath -m "${IMAGEPROBE:-.build/release/imageprobe}")
library=$(realpath -m "${IMAGEPROBE_LIBRARY:-.build/c/libimageprobe.so}")
rtt_ms=${RTT_MS:-50}
mbit=${MBIT:-20}
window_kb=${WINDOW_KB:-256}
[ -x "$imageprobe" ] || { echo "no imageprobe command at $imageprobe (set IMAGEPROBE)" >&2; exit 2; }

install() {
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || install nginx-light
command -v openssl >/dev/null || install openssl
command -v curl >/dev/null || install curl
ruby -e 'require "fastimage"' 2>/dev/null || install ruby-fastimage
nginx=$(command -v nginx || echo /usr/sbin/nginx)

work=$(mktemp -d)
proxies=()
cleanup() {
    [ ${#proxies[@]} -eq 0 ] || kill "${proxies[@]}" 2>/dev/null || true
    kill "$(cat "$work/nginx.pid" 2>/dev/null)" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}
http_port=$(free_port)
https_port=$(free_port)
http_proxy=$(free_port)
https_proxy=$(free_port)

cert=$work/cert.pem
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 -subj /CN=127.0.0.1 \
    -addext "subjectAltName=IP:127.0.0.1,DNS:localhost" -keyout "$work/key.pem" -out "$cert" 2>/dev/null

# nginx 1.25.1 moved h2 from a listen parameter to its own directive.
version=$("$nginx" -v 2>&1 | sed 's|.*nginx/||')
if [ "$(printf '%s\n' 1.25.1 "$version" | sort -V | head -1)" = 1.25.1 ]; then
    h2_listen="ssl"; h2_directive="http2 on;"
else
    h2_listen="ssl http2"; h2_directive=""
fi
cat > "$work/nginx.conf" <<CONF
$( [ "$(id -u)" = 0 ] && echo "user root;" )
worker_processes 1;
pid $work/nginx.pid;
events { worker_connections 1024; }
http {
    log_format probe '\$request_uri \$status \$bytes_sent \$connection \$server_protocol';
    access_log $work/access.log probe;
    client_body_temp_path $work/tmp;
    proxy_temp_path $work/tmp;
    fastcgi_temp_path $work/tmp;
    uwsgi_temp_path $work/tmp;
    scgi_temp_path $work/tmp;
    default_type application/octet-stream;
    server { listen 127.0.0.1:$http_port; root $corpus; }
    server {
        listen 127.0.0.1:$https_port $h2_listen;
        $h2_directive
        root $corpus;
        ssl_certificate $cert;
        ssl_certificate_key $work/key.pem;
    }
}
CONF
"$nginx" -p "$work/" -c "$work/nginx.conf" -e "$work/error.log"
for _ in $(seq 50); do [ -s "$work/nginx.pid" ] && break; sleep 0.1; done

# A proxy per port, so the http and https runs each have a link of their own.
for pair in "$http_proxy $http_port" "$https_proxy $https_port"; do
    read -r listen upstream <<<"$pair"
    python3 Benchmarks/latency-proxy.py "$listen" "$upstream" --rtt-ms "$rtt_ms" --mbit "$mbit" \
        --window-kb "$window_kb" --seconds 3600 &
    proxies+=($!)
done
for port in "$http_proxy" "$https_proxy"; do
    for _ in $(seq 50); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
done

mapfile -t files < <(cd "$corpus" && find files -type f | sort)
printf '%s\n' "${files[@]}" > "$work/paths"

# The clients other than the command, each printing how many URLs it answered.
# Debian's ruby-fastimage uses StringIO without requiring it.
cat > "$work/fastimage.rb" <<'RUBY'
require "stringio"
require "fastimage"
queue = Queue.new
File.readlines(ARGV[0], chomp: true).each { |url| queue << url }
queue.close
answered = 0
lock = Mutex.new
32.times.map do
  Thread.new do
    while (url = queue.pop)
      size = FastImage.size(url, timeout: 10)
      lock.synchronize { answered += 1 } if size
    end
  end
end.each(&:join)
puts answered
RUBY
cat > "$work/probe.mjs" <<'JS'
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
const { probeURL } = await import(pathToFileURL(process.argv[2]));
const urls = readFileSync(process.argv[3], 'utf8').split('\n').filter(Boolean);
let next = 0, answered = 0;
async function worker() {
  while (next < urls.length) {
    const url = urls[next++];
    try {
      // CACHE_DIR: answers kept and revalidated (SPEC.md §6.7); CACHE_FRESHNESS_MS, their freshness.
      const cache = process.env.CACHE_DIR ? { dir: process.env.CACHE_DIR, freshness: Number(process.env.CACHE_FRESHNESS_MS ?? 86400000) } : undefined;
      if ((await probeURL(url, { cache })).format) answered++;
    } catch {}
  }
}
await Promise.all(Array.from({ length: 32 }, worker));
console.log(answered);
JS
cat > "$work/probe.py" <<'PY'
import os, ssl, sys
sys.path.insert(0, sys.argv[1])
import imageprobe
urls = open(sys.argv[2]).read().split()
context = ssl.create_default_context(cafile=sys.argv[3]) if len(sys.argv) > 3 else None
# CACHE_DIR: answers kept and revalidated (SPEC.md §6.7); CACHE_FRESHNESS, their freshness in seconds.
cache = imageprobe.URLCache(os.environ["CACHE_DIR"], freshness=float(os.environ.get("CACHE_FRESHNESS", 86400))) \
    if os.environ.get("CACHE_DIR") else None
print(sum(1 for r in imageprobe.probe_urls(urls, jobs=32, context=context, cache=cache) if r.ok and r.format))
PY

command_client() { mapfile -t urls < "$work/urls"; "$imageprobe" --json "$@" "${urls[@]}" | grep -c '"format":'; }
fastimage_client() { ruby "$work/fastimage.rb" "$work/urls"; }
curl_client() {
    sed 's/.*/url = "&"\noutput = "\/dev\/null"/' "$work/urls" > "$work/curl.cfg"
    curl --parallel --parallel-max 32 -s --cacert "$cert" -K "$work/curl.cfg"
    echo "-"
}
node_client() { NODE_EXTRA_CA_CERTS=$cert node "$work/probe.mjs" "$repo/bindings/js/dist/node.mjs" "$work/urls"; }
python_client() {
    local ca=(); [ "$1" = https ] && ca=("$cert")
    IMAGEPROBE_LIBRARY=$library python3 "$work/probe.py" "$repo/bindings/python/src" "$work/urls" "${ca[@]}"
}

# Waits for nginx to have logged the run: it logs a request when its response has left, which
# the proxy's link may hold up after the client is done.
settle() {
    local size=-1
    while [ "$size" != "$(stat -c %s "$work/access.log")" ]; do
        size=$(stat -c %s "$work/access.log")
        sleep 0.5
    done
}

# run LABEL SCHEME DESCRIPTION CLIENT [ARGS...]: one table row. LABEL tags the URLs (?run=LABEL;
# TAG=... for the same URLs in several rows, as a cache's runs need), and the access log is split
# by where it stood before the run.
run() {
    local label=$1 scheme=$2 description=$3 port=$http_proxy start end answered mark
    shift 3
    [ "$scheme" = https ] && port=$https_proxy
    sed "s|^|$scheme://127.0.0.1:$port/|; s|\$|?run=${TAG:-$label}|" "$work/paths" > "$work/urls"
    mark=$(stat -c %s "$work/access.log" 2>/dev/null || echo 0)
    start=$(date +%s.%N)
    answered=$("$@" 2>"$work/stderr" | tail -1) || true
    end=$(date +%s.%N)
    settle
    # A client that answered nothing most likely failed to start: say why.
    [ "${answered:-0}" != 0 ] || tail -3 "$work/stderr" >&2
    [ "$answered" = "-" ] || answered="${answered:-0}/${#files[@]}"
    tail -c +$((mark + 1)) "$work/access.log" | awk -v what="$description" -v time="$(awk "BEGIN { print $end - $start }")" -v answered="$answered" '
        { requests++; if (!($4 in connection)) { connection[$4]; connections++ }; protocol[$5]++ }
        END { for (p in protocol) kinds++
              for (p in protocol) list = list (list ? ", " : "") p (kinds > 1 ? " x" protocol[p] : "")
              printf "| %s | %.2f | %s | %d | %d | %s |\n", what, time, answered, requests, connections, list ? list : "-" }
    '
}
# A row for a client that can't run here.
missing() { echo "| $1 | - | $2 | - | - | - |"; }

echo "corpus: $corpus (${#files[@]} files, $(du -sb "$corpus/files" | cut -f1) bytes); network: ${rtt_ms} ms round trip, ${mbit} Mbit/s each way shared by all connections, ${window_kb} KB window; nginx $version"
echo
echo "| run | time (s) | answered | requests | connections | protocol |"
echo "|---|---:|---:|---:|---:|---|"
# The command: over http/1.1 the per-host connection cap (6) bounds it whatever -j says, so the
# -j 32 rows raise it too; over h2 the probes share a connection.
for mode in dimensions full; do
    flags=(); [ $mode = dimensions ] && flags=(--dimensions-only)
    run "http-$mode-j32" http "imageprobe ${flags[*]:-(full)} -j 32 --host-connections 32, http" \
        command_client "${flags[@]}" -j 32 --host-connections 32
    run "http-$mode-default" http "imageprobe ${flags[*]:-(full)} (defaults), http" command_client "${flags[@]}"
    for jobs in 32 128 256 default; do
        parallel=(); [ "$jobs" = default ] || parallel=(-j "$jobs")
        run "https-$mode-j$jobs" https "imageprobe ${flags[*]:-(full)} ${parallel[*]:-(defaults)}, https" \
            command_client "${flags[@]}" "${parallel[@]}" --cacert "$cert"
    done
done
run http-fastimage "http" "FastImage.size, 32 threads, http" fastimage_client
run https-curl "https" "curl --parallel-max 32, whole files, https" curl_client
for scheme in http https; do
    if ! command -v node >/dev/null; then
        missing "JS probeURL x32 (full), $scheme" "no node"
    elif [ ! -f bindings/js/dist/node.mjs ]; then
        missing "JS probeURL x32 (full), $scheme" "bindings/js/dist not built"
    else
        run "$scheme-node" "$scheme" "JS probeURL x32 (full), $scheme" node_client
    fi
done
for scheme in http https; do
    if [ -f "$library" ]; then
        run "$scheme-python" "$scheme" "Python probe_urls(jobs=32) (full), $scheme" python_client "$scheme"
    else
        missing "Python probe_urls(jobs=32) (full), $scheme" "no libimageprobe.so (Scripts/build-c.sh)"
    fi
done

# A site's second build (SPEC.md §6.7): the same URLs probed with a cache on disk, cold, warm
# (fresh: no request) and stale (freshness 0: one conditional request each, a 304).
for client in node python; do
    if { [ $client = node ] && [ ! -f bindings/js/dist/node.mjs ]; } || { [ $client = python ] && [ ! -f "$library" ]; }; then
        missing "$client with a cache" "not built"
        continue
    fi
    name="JS probeURL x32"; [ $client = python ] && name="Python probe_urls(jobs=32)"
    export CACHE_DIR=$work/cache-$client
    for pass in cold warm stale; do
        freshness=86400; [ $pass = stale ] && freshness=0
        TAG=cache-$client CACHE_FRESHNESS=$freshness CACHE_FRESHNESS_MS=$((freshness * 1000)) \
            run "https-$client-cache-$pass" https "$name, cache $pass, https" ${client}_client https
    done
    unset CACHE_DIR
done
