# shellcheck shell=bash
# b. serving: wrk on loopback, vod serve vs nginx (sendfile on): a ~2 MB segment, the 2 s first segment of its rung
# and a media playlist, also as a title still processing.

# start_nginx ROOT: nginx serving ROOT on a free loopback port, with its config, logs and pid in a temp dir.
start_nginx() {
  local root=$1 port
  NGINX_DIR=$WORK/nginx
  mkdir -p "$NGINX_DIR"
  port=$(helper free-port)
  local user_line=""
  [[ $(id -u) -eq 0 ]] && user_line="user root;" # the rendition lives in a private temp dir
  cat >"$NGINX_DIR/nginx.conf" <<EOF
# Debian's nginx as one would put it in front of a folder of renditions: sendfile on, keep-alive.
$user_line
daemon off;
worker_processes 1;
pid $NGINX_DIR/nginx.pid;
error_log $NGINX_DIR/error.log warn;
events { worker_connections 1024; }
http {
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    sendfile on;
    tcp_nopush on;
    tcp_nodelay on;
    keepalive_timeout 65;
    keepalive_requests 100000;
    access_log off;
    client_body_temp_path $NGINX_DIR/client_body;
    proxy_temp_path $NGINX_DIR/proxy;
    fastcgi_temp_path $NGINX_DIR/fastcgi;
    uwsgi_temp_path $NGINX_DIR/uwsgi;
    scgi_temp_path $NGINX_DIR/scgi;
    server {
        listen 127.0.0.1:$port;
        root $root;
    }
}
EOF
  nginx -t -p "$NGINX_DIR" -c "$NGINX_DIR/nginx.conf" -e "$NGINX_DIR/error.log" >"$NGINX_DIR/test.log" 2>&1 ||
    { cat "$NGINX_DIR/test.log" >&2; fail "nginx -t refused the bench's config"; }
  nginx -p "$NGINX_DIR" -c "$NGINX_DIR/nginx.conf" -e "$NGINX_DIR/error.log" >"$NGINX_DIR/stdout.log" 2>&1 &
  NGINX_PID=$!
  register_pid "$NGINX_PID" nginx
  NGINX_URL=http://127.0.0.1:$port
  helper wait-http "$NGINX_URL/" 30 "$NGINX_PID" >/dev/null || { cat "$NGINX_DIR/error.log" >&2; fail "nginx did not start"; }
  log "  nginx pid $NGINX_PID on $NGINX_URL (sendfile on, one worker)"
}

# same_bytes URL FILE: the server returns exactly FILE's bytes with a 200.
same_bytes() {
  local code
  code=$(curl -sS -o "$WORK/fetched" -w '%{http_code}' "$1")
  [[ $code == 200 ]] || fail "$1 answered HTTP $code: $(head -c 200 "$WORK/fetched")"
  cmp -s "$WORK/fetched" "$2" || fail "$1 did not return the bytes of $2"
}

# bench_wrk KEY URL: one wrk run; records KEY.rps and KEY.p99_ms.
bench_wrk() {
  local key=$1 url=$2 out=$WORK/wrk.txt rps p99 total non2xx socket_errors
  wrk "${WRK_ARGS[@]}" --latency "$url" >"$out" 2>&1 || { cat "$out" >&2; fail "wrk failed on $url"; }
  read -r rps p99 total non2xx socket_errors < <(helper parse-wrk "$out")
  ((non2xx == 0)) || fail "$url: $non2xx of $total responses were not 2xx/3xx"
  ((socket_errors == 0)) || record "meta.note.wrk_$key" "wrk reported $socket_errors socket errors for $key."
  record "$key.rps" "$rps"
  record "$key.p99_ms" "$p99"
  log "  $key: $rps req/s, p99 $p99 ms"
}

section_b() {
  serve_available || not_available "this vod has no \`vod serve\` with --media-dir/--output-dir/--database"
  if [[ ! -s $WORK/rendition ]]; then
    log "  no rendition from section d yet: uploading one"
    start_server serving
    upload_and_wait "$(source_clip "$D_SIZE" "$D_SECONDS")" 0
    stop_pid "$SERVER_PID"
  fi
  local rendition id name segment first playlist
  { read -r rendition; read -r id; read -r name; } <"$WORK/rendition"
  # A freshly started server on the catalog that holds the rendition: idle, like the nginx it is measured
  # against, with nothing queued and no transcode running.
  start_server "$name"
  # The segment closest to 2 MB (the 1080p rung at 2.8 Mb/s makes ~2.1 MB per 6 s), and its media playlist.
  segment=$(cd "$rendition" && find . -name 'segment_*.ts' -printf '%s %P\n' |
    awk '{ d = $1 - 2000000; if (d < 0) d = -d; if (best == "" || d < bd) { best = $2; bd = d } } END { print best }')
  [[ -n $segment ]] || fail "no segment in $rendition"
  playlist=$(dirname "$segment")/index.m3u8
  [[ -f $rendition/$playlist ]] || fail "no $playlist in $rendition"
  # The first segment of the same rung: 2 s with the fast start, what every player fetches first.
  first=$(dirname "$segment")/segment_000.ts
  [[ -f $rendition/$first ]] || fail "no $first in $rendition"
  record meta.b.segment "$segment"
  record meta.b.segment_bytes "$(stat -c %s "$rendition/$segment")"
  record meta.b.first "$first"
  record meta.b.first_bytes "$(stat -c %s "$rendition/$first")"
  record meta.b.playlist "$playlist"
  record meta.b.playlist_bytes "$(stat -c %s "$rendition/$playlist")"
  record meta.b.wrk "\`${WRK_ARGS[*]} --latency\` (threads, connections, duration)"
  record meta.b.nginx "${NGINX_NOTE:-(Debian 1.22, \`sendfile on\`, \`tcp_nopush on\`, \`worker_processes 1\`, \`keepalive_requests 100000\`, \`access_log off\`, config written by the bench)}"

  start_nginx "$rendition"
  local vod_base=$SERVER_URL/api/media/$id/stream
  local code
  code=$(curl -sS -o /dev/null -w '%{http_code}' "$vod_base/$playlist")
  [[ $code == 404 || $code == 405 || $code == 501 ]] && not_available "GET /api/media/:id/stream/$playlist answered HTTP $code"
  local path
  for path in "$segment" "$first" "$playlist"; do
    same_bytes "$vod_base/$path" "$rendition/$path"
    same_bytes "$NGINX_URL/$path" "$rendition/$path"
  done
  for path in "$segment" "$first" "$playlist"; do
    record_cmd "b. wrk, vod ($path)" wrk "${WRK_ARGS[@]}" --latency "http://127.0.0.1:\$PORT/api/media/\$ID/stream/$path"
    record_cmd "b. wrk, nginx ($path)" wrk "${WRK_ARGS[@]}" --latency "http://127.0.0.1:\$NGINX_PORT/$path"
  done

  local run kind
  for ((run = 1; run <= RUNS; run++)); do
    log "  run $run of $RUNS"
    for kind in segment first playlist; do
      case $kind in segment) path=$segment ;; first) path=$first ;; *) path=$playlist ;; esac
      bench_wrk "b.$kind.vod" "$vod_base/$path"
      bench_wrk "b.$kind.nginx" "$NGINX_URL/$path"
    done
  done
  stop_pid "$SERVER_PID"

  # The same playlist as a growing title's: its row set back to processing under a worker's live lease, and
  # a server with no worker of its own (which would take the job), so it serves it as it serves a title
  # still being transcoded: checked against the file on each request, max-age=1.
  helper mark-live "$SERVER_DIR/vod.sqlite" "$id" >/dev/null
  start_server "$name" /api/media --workers 0
  vod_base=$SERVER_URL/api/media/$id/stream
  same_bytes "$vod_base/$playlist" "$rendition/$playlist"
  curl -sS -D - -o /dev/null "$vod_base/$playlist" | grep -qi '^cache-control: public, max-age=1' ||
    fail "the playlist of a processing title was not served as live"
  for ((run = 1; run <= RUNS; run++)); do
    log "  live run $run of $RUNS"
    bench_wrk "b.live.vod" "$vod_base/$playlist"
    bench_wrk "b.live.nginx" "$NGINX_URL/$playlist"
  done
  stop_pid "$NGINX_PID"
  stop_pid "$SERVER_PID"
}
