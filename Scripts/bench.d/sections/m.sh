# shellcheck shell=bash
# m. status events: 1,000 Server-Sent Events clients (100 with --quick) on /api/events while a clip is transcoded:
# server memory per client, each event's delay to every client.

section_m() {
  serve_available || not_available "this vod has no \`vod serve\` with --media-dir/--output-dir/--database"
  local src run rss_before rss_open opened code id i
  src=$(source_clip "$M_SIZE" "$M_SECONDS")
  record meta.m.clients "$M_CLIENTS"
  record meta.m.clip "${M_SECONDS} s ${M_SIZE#*x}p${FPS} clip"
  # Every client holds one event stream: the server's cap on them (512 by default) is raised to let them all in.
  start_server sse /api/media "${VOD_LADDER_ARGS[@]}" --max-event-subscribers $((M_CLIENTS + 16))
  local clients=(python3 "$HELPERS" sse-clients "$SERVER_URL/api/events" "$M_CLIENTS" "$WORK/sse.ready" "$WORK/sse.json"
    media.ready "$READY_TIMEOUT")
  record_raw "m. clients" "$(quote_cmd "${clients[@]}" | sed "s#$SERVER_URL#http://127.0.0.1:\$PORT#; s#$HELPERS#Scripts/bench.d/helpers.py#; s#$WORK#\$WORK#g")"
  for ((run = 1; run <= RUNS; run++)); do
    log "  run $run of $RUNS"
    rm -f "$WORK/sse.ready" "$WORK/sse.json"
    read -r rss_before _ < <(helper rss "$SERVER_PID")
    "${clients[@]}" &
    local listener=$!
    register_pid "$listener" "SSE clients"
    for ((i = 0; i < 1200; i++)); do [[ -s $WORK/sse.ready ]] && break; sleep 0.1; done
    [[ -s $WORK/sse.ready ]] || fail "the SSE clients did not all connect"
    sleep 1
    read -r rss_open _ < <(helper rss "$SERVER_PID")
    opened=$(cat "$WORK/sse.ready")
    record m.rss_per_client_kb "$(awk -v a="$rss_open" -v b="$rss_before" -v n="$opened" 'BEGIN { printf "%.1f", (a - b) / n }')"
    code=$(curl -sS -o "$WORK/m-upload.json" -w '%{http_code}' -H 'Expect:' -H 'Content-Type: video/mp4' -X POST -T "$src" \
      "$SERVER_URL/api/media?title=events&filename=$(basename "$src")")
    [[ $code == 201 ]] || fail "the upload answered HTTP $code"
    id=$(helper json-field "$WORK/m-upload.json" id)
    wait "$listener" || fail "the SSE clients failed"
    [[ -s $WORK/sse.json ]] || fail "the SSE clients wrote no results"
    for key in delay_ms_median delay_ms_p99 delay_ms_max; do record "m.$key" "$(helper json-field "$WORK/sse.json" "$key")"; done
    record meta.m.finished "$(helper json-field "$WORK/sse.json" finished) of $opened clients saw media $id become ready"
    record meta.m.events "$(helper json-field "$WORK/sse.json" events)"
    log "  $opened clients: $(cat "$WORK/sse.json")"
  done
  stop_pid "$SERVER_PID"
}
