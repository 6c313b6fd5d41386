# shellcheck shell=bash
# h. list of 10,000: GET /api/media on a catalog of 10,000 ready items (1,000 with --quick), the first request after
# start and warm ones; no reference.

section_h() {
  serve_available || not_available "this vod has no \`vod serve\` with --media-dir/--output-dir/--database"
  local src n=$H_ITEMS
  # A realistic row needs a real probe: the clip of section d (1080p, cached), as `vod probe` prints it.
  src=$(source_clip "$D_SIZE" "$D_SECONDS")
  local probe_cmd=("$VOD" probe "$src")
  record_raw "h. probe of the clip" "$(quote_cmd "${probe_cmd[@]}") >\$WORK/list-probe.json"
  "${probe_cmd[@]}" >"$WORK/list-probe.json" || fail "vod probe $(basename "$src") failed"

  # A first start creates the catalog through the server's migrations; it is then filled with the server
  # stopped.
  start_server list
  stop_pid "$SERVER_PID"
  local fill_cmd=(python3 "$HELPERS" fill-catalog "$SERVER_DIR/vod.sqlite" "$n" "$src" "$WORK/list-probe.json"
    "$SERVER_DIR/media" "$SERVER_DIR/out")
  record_raw "h. fill the catalog (server stopped)" \
    "$(quote_cmd "${fill_cmd[@]}" | sed "s#$ROOT/##g; s#\\\$WORK/list/#\$WORK/server/#g")"
  local rows
  rows=$("${fill_cmd[@]}") || fail "filling the catalog failed"
  [[ $rows == "$n" ]] || fail "the catalog holds $rows rows after the fill, not $n"
  record meta.h.items "$n"
  record meta.h.clip "$(basename "$src")"
  log "  $n ready items in $SERVER_DIR/vod.sqlite"

  # The same catalog again, waited for on /health: waiting on GET /api/media would be the first list.
  start_server list /health
  sleep 1 # the start-up work (requeue of interrupted jobs, the orphan sweep) is done before the first request
  local body=$WORK/list.json
  local cmd=(curl -sS --max-time 120 -o "$body" -w '%{http_code} %{time_total} %{size_download}' "$SERVER_URL/api/media")
  record_raw "h. list (the first request after start, then $((RUNS * 3)) more)" \
    "$(quote_cmd "${cmd[@]}" | sed "s#$SERVER_URL#http://127.0.0.1:\$PORT#")"
  local answer code seconds bytes items i
  for ((i = 0; i <= RUNS * 3; i++)); do
    answer=$("${cmd[@]}") || fail "curl GET /api/media failed ($answer)"
    read -r code seconds bytes <<<"$answer"
    [[ $code == 200 ]] || fail "GET /api/media answered HTTP $code: $(head -c 200 "$body")"
    items=$(helper check-media-list "$body" "$n" 2>&1) || fail "GET /api/media: $items"
    if ((i == 0)); then
      record h.cold_s "$seconds"
      record meta.h.body_bytes "$bytes"
      log "  cold: $n items, $bytes bytes in $seconds s"
    else
      record h.warm_s "$seconds"
      log "  warm $i of $((RUNS * 3)): $seconds s"
    fi
  done
  stop_pid "$SERVER_PID"
}
