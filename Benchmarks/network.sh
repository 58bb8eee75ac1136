#!/usr/bin/env bash
# The Range strategy's settings, measured over HTTP: nginx on loopback serves a corpus, and the
# fetcher probes every file under each setting of the first request's length and the smallest
# later request. Prints a table of answers, requests and bytes (the fetcher's count and nginx's
# $bytes_sent). SPEC.md §6 quotes it.
#   Benchmarks/network.sh [CORPUS_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=$(cd "${1:-../shared/corpus}" && pwd)
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || {
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light >/dev/null
}
nginx=$(command -v nginx || echo /usr/sbin/nginx)
swift build -c release --product imageprobe-bench >&2
bench=.build/release/imageprobe-bench

work=$(mktemp -d)
trap 'kill $(cat "$work/nginx.pid" 2>/dev/null) 2>/dev/null || true; rm -rf "$work"' EXIT
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
cat > "$work/nginx.conf" <<CONF
$( [ "$(id -u)" = 0 ] && echo "user root;" )
worker_processes 1;
pid $work/nginx.pid;
events { worker_connections 256; }
http {
    log_format probe '\$request_uri \$status \$bytes_sent';
    access_log $work/access.log probe;
    client_body_temp_path $work/tmp;
    proxy_temp_path $work/tmp;
    fastcgi_temp_path $work/tmp;
    uwsgi_temp_path $work/tmp;
    scgi_temp_path $work/tmp;
    default_type application/octet-stream;
    server { listen 127.0.0.1:$port; root $corpus; }
}
CONF
"$nginx" -p "$work/" -c "$work/nginx.conf" -e "$work/error.log"
for _ in $(seq 50); do [ -s "$work/nginx.pid" ] && break; sleep 0.1; done

mapfile -t files < <(cd "$corpus" && find files -type f | sort)
echo "corpus: $corpus (${#files[@]} files, $(du -sb "$corpus/files" | cut -f1) bytes)"
echo
echo "| first request | later requests at least | growth | answered | requests | bytes received | nginx bytes sent |"
echo "|---:|---:|---:|---:|---:|---:|---:|"
for setting in "1024 1 0" "1024 1024 0" "1024 1024 2" "1024 4096 0" "512 512 2" "2048 2048 2" "4096 1 0" "4096 4096 0" "4096 4096 2" "16384 4096 0"; do
    read -r initial minimum growth <<<"$setting"
    label="i${initial}m${minimum}g${growth}"
    line=$("$bench" network "http://127.0.0.1:$port/" --initial "$initial" --minimum "$minimum" --growth "$growth" --label "$label" "${files[@]}")
    sleep 0.3  # nginx logs a request when it ends
    sent=$(awk -v l="run=$label" 'index($1, l) { s += $3 } END { print s + 0 }' "$work/access.log")
    python3 - "$line" "$sent" <<'PY'
import json, sys
r = json.loads(sys.argv[1])
print(f"| {r['initial']} | {r['minimum']} | {r['growth']} | {r['answered']}/{r['files']} | {r['requests']} | {r['bytesReceived']} | {sys.argv[2]} |")
PY
done
