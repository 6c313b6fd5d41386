# shellcheck shell=bash
# l. resumable upload: the body of c through tus (POST, then PATCHes of 64 MiB) and as a multipart form: throughput
# and server RSS growth of each.

section_l() {
  serve_available || not_available "this vod has no \`vod serve\` with --media-dir/--output-dir/--database"
  start_server tus
  local body=$WORK/upload/zeros-l.bin bytes=$((C_MIB * 1048576)) run answer seconds sent status code
  truncate -s "$bytes" "$body"
  record meta.l.body_mib "$C_MIB"
  record meta.l.chunk_mib "$L_CHUNK_MIB"
  local tus=(python3 "$HELPERS" tus-upload "$SERVER_URL" "$body" "$L_CHUNK_MIB")
  local multipart=(curl -sS -o "$WORK/multipart-answer" -w '%{http_code} %{time_total} %{size_upload}' -H 'Expect:'
    -F "file=@$body;type=video/mp4" -F title=multipart "$SERVER_URL/api/media")
  record_raw "l. tus" "$(quote_cmd "${tus[@]}" | sed "s#$SERVER_URL#http://127.0.0.1:\$PORT#; s#$HELPERS#Scripts/bench.d/helpers.py#")"
  record_raw "l. multipart" "$(quote_cmd "${multipart[@]}" | sed "s#$SERVER_URL#http://127.0.0.1:\$PORT#")"
  for ((run = 1; run <= RUNS; run++)); do
    log "  run $run of $RUNS"
    answer=$(measure_upload "${tus[@]}") || fail "the tus upload failed: $answer"
    read -r seconds sent status <<<"$answer"
    ((sent == bytes)) || fail "the tus client sent $sent of $bytes bytes; the last answer was HTTP $status"
    record l.tus.mibps "$(awk -v b="$bytes" -v s="$seconds" 'BEGIN { printf "%.1f", b / 1048576 / s }')"
    record l.tus.rss_growth_kb "$(cat "$WORK/rss-growth")"
    record meta.l.tus_answer "HTTP $status"
    log "  tus: $C_MIB MiB in $seconds s, last PATCH HTTP $status, RSS growth $(($(cat "$WORK/rss-growth") / 1024)) MiB"
    answer=$(measure_upload "${multipart[@]}") || fail "the multipart upload failed: $answer"
    read -r code seconds sent <<<"$answer"
    ((sent >= bytes)) || fail "curl sent $sent of $bytes bytes; the server answered HTTP $code"
    record l.multipart.mibps "$(awk -v b="$bytes" -v s="$seconds" 'BEGIN { printf "%.1f", b / 1048576 / s }')"
    record l.multipart.rss_growth_kb "$(cat "$WORK/rss-growth")"
    record meta.l.multipart_answer "HTTP $code"
    log "  multipart: $C_MIB MiB in $seconds s, HTTP $code, RSS growth $(($(cat "$WORK/rss-growth") / 1024)) MiB"
  done
  stop_pid "$SERVER_PID"
}
