# shellcheck shell=bash
# A vod serve of the bench: starting it, uploading to it, and its memory during an upload (sections b, c, d, h, l, m).

# Whether this vod has `vod serve` with the storage options the bench needs.
serve_available() {
  local help
  help=$("$VOD" serve --help 2>&1) || return 1
  [[ $help == *--media-dir* && $help == *--output-dir* && $help == *--database* ]]
}

# start_server NAME [READY_PATH]: starts `vod serve` on a free loopback port with its catalog, media and
# renditions in $WORK/NAME (kept as they are when the folder exists: a second start serves the same catalog),
# and waits until READY_PATH (default /api/media) answers; sets SERVER_PID, SERVER_URL, SERVER_DIR and writes
# them to $WORK/NAME.env.
start_server() {
  local name=$1 ready_path=${2:-/api/media} port
  shift $(($# < 2 ? $# : 2))
  SERVER_DIR=$WORK/$name
  mkdir -p "$SERVER_DIR/media" "$SERVER_DIR/out"
  port=$(helper free-port)
  local cmd=("$VOD" serve --host 127.0.0.1 --port "$port" --media-dir "$SERVER_DIR/media"
    --output-dir "$SERVER_DIR/out" --database "$SERVER_DIR/vod.sqlite" "$@")
  record_raw "vod serve" "$(quote_cmd "${cmd[@]}" | sed "s/--port $port/--port \$PORT/; s#\\\$WORK/$name/#\$WORK/server/#g")"
  "${cmd[@]}" >"$SERVER_DIR/serve.log" 2>&1 &
  SERVER_PID=$!
  register_pid "$SERVER_PID" "vod serve ($name)"
  SERVER_URL=http://127.0.0.1:$port
  if ! helper wait-http "$SERVER_URL$ready_path" 60 "$SERVER_PID" >/dev/null; then
    tail -n 20 "$SERVER_DIR/serve.log" >&2
    fail "vod serve did not start (see its log above)"
  fi
  printf 'SERVER_PID=%q\nSERVER_URL=%q\nSERVER_DIR=%q\n' "$SERVER_PID" "$SERVER_URL" "$SERVER_DIR" >"$WORK/$name.env"
  log "  vod serve ($name) pid $SERVER_PID on $SERVER_URL"
}

# upload_and_wait SOURCE RECORD: uploads SOURCE raw to the running server, then waits for "ready"; with
# RECORD=1 records d.first_segment_s and d.ready_s. Writes the rendition folder, the media id and the server's
# name to $WORK/rendition.
upload_and_wait() {
  local src=$1 record_it=$2 code t_end id result hls_path
  ls -A "$SERVER_DIR/out" >"$WORK/snapshot"
  local cmd=(curl -sS -o "$WORK/upload.json" -w '%{http_code}' -H 'Expect:' -H 'Content-Type: video/mp4'
    -X POST -T "$src" "$SERVER_URL/api/media?title=bench&filename=$(basename "$src")")
  record_raw "d. upload" "$(quote_cmd "${cmd[@]}" | sed "s#$SERVER_URL#http://127.0.0.1:\$PORT#")"
  code=$("${cmd[@]}")
  t_end=$(date +%s.%N)
  case $code in
    2??) ;;
    404 | 405 | 501) not_available "POST /api/media answered HTTP $code: $(head -c 200 "$WORK/upload.json")" ;;
    *) fail "upload answered HTTP $code: $(head -c 300 "$WORK/upload.json")" ;;
  esac
  id=$(helper json-field "$WORK/upload.json" id)
  result=$(helper watch-ready "$SERVER_URL" "$id" "$t_end" "$READY_TIMEOUT" "$SERVER_DIR/out" "$WORK/snapshot")
  curl -sS -o "$WORK/item.json" "$SERVER_URL/api/media/$id"
  hls_path=$(helper json-field "$WORK/item.json" hls_path)
  [[ -d $hls_path ]] || hls_path=$SERVER_DIR/out/$id
  printf '%s\n%s\n%s\n' "$hls_path" "$id" "$(basename "$SERVER_DIR")" >"$WORK/rendition"
  if ((record_it)); then
    local ready first complete playable
    read -r ready first complete playable < <(python3 -c 'import json, sys
r = json.loads(sys.argv[1])
print(r["ready_s"], r["first_segment_s"] if r["first_segment_s"] is not None else "-", r["first_complete_s"], r["playable_s"])' "$result")
    record d.ready_s "$ready"
    record d.playable_s "$playable"
    if [[ $first != - ]]; then record d.first_segment_s "$first"; fi
    record d.first_complete_s "$complete"
    log "  media $id: first segment file after $first s, first segment complete after $complete s, playable after $playable s, ready after $ready s"
  fi
}

# measure_upload CMD...: runs an upload command against the server $SERVER_PID while sampling its RSS, and
# prints the command's output; the server's RSS growth during it, in KiB, goes to $WORK/rss-growth, and whether
# VmHWM could be reset first (1) or the growth comes from 50 ms samples only (0) to $WORK/rss-reset.
measure_upload() {
  local rss_before hwm_after sampled growth reset=1 output
  sync
  { echo 5 >"/proc/$SERVER_PID/clear_refs"; } 2>/dev/null || reset=0 # resets VmHWM to the current RSS
  read -r rss_before _ < <(helper rss "$SERVER_PID")
  rm -f "$WORK/rss-peak" "$WORK/rss-peak.stop"
  helper sample-rss "$SERVER_PID" "$WORK/rss-peak" 0.05 &
  local sampler=$!
  register_pid "$sampler" "RSS sampler"
  output=$("$@") || { touch "$WORK/rss-peak.stop"; echo "$output"; return 1; }
  touch "$WORK/rss-peak.stop"
  wait "$sampler" || true
  read -r _ hwm_after < <(helper rss "$SERVER_PID")
  sampled=$(cat "$WORK/rss-peak" 2>/dev/null || echo 0)
  ((reset)) || hwm_after=0 # without the reset VmHWM is the peak since start, not of the upload
  growth=$(((hwm_after > sampled ? hwm_after : sampled) - rss_before))
  ((growth > 0)) || growth=0
  echo "$growth" >"$WORK/rss-growth"
  echo "$reset" >"$WORK/rss-reset"
  echo "$output"
}
