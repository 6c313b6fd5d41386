# shellcheck shell=bash
# t. thumbnail flood: a media playlist's p99 latency while 16 anonymous clients ask on-demand thumbnails at random
# times and widths (issue 27), against the same playlist's p99 on the idle server in the same run.

section_t() {
  serve_available || not_available "this vod has no \`vod serve\` with --media-dir/--output-dir/--database"
  local src run id playlist result
  src=$(source_clip "$T_SIZE" "$T_SECONDS")
  record meta.t.clip "${T_SECONDS} s ${T_SIZE#*x}p${FPS} clip"
  record meta.t.clients "$T_CLIENTS"
  start_server t /api/media "${VOD_LADDER_ARGS[@]}"
  upload_and_wait "$src" 0
  id=$(sed -n 2p "$WORK/rendition")
  playlist=/api/media/$id/$(curl -sS "$SERVER_URL/api/media/$id/stream" | grep -v '^#' | grep -m1 .)
  record meta.t.playlist "${playlist/$id/\$ID}"
  local flood=(python3 "$HELPERS" thumbnail-flood "$SERVER_URL" "$id" "$playlist" "$T_SECONDS" "$T_CLIENTS" "$T_FLOOD_SECONDS")
  record_raw "t. flood" "$(quote_cmd "${flood[@]}" | sed "s#$SERVER_URL#http://127.0.0.1:\$PORT#; s#$HELPERS#Scripts/bench.d/helpers.py#; s#/$id/#/\$ID/#; s# $id # \$ID #")"
  for ((run = 1; run <= RUNS; run++)); do
    log "  run $run of $RUNS"
    result=$("${flood[@]}") || fail "the thumbnail flood failed"
    log "  $result"
    for key in idle_p99_ms flood_p99_ms ratio thumbnails_served thumbnails_refused; do
      record "t.$key" "$(python3 -c 'import json, sys; print(json.loads(sys.argv[1])[sys.argv[2]])' "$result" "$key")"
    done
  done
  stop_pid "$SERVER_PID"
}
