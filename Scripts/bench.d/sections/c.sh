# shellcheck shell=bash
# c. upload: a 2 GiB body streamed into POST /api/media: throughput vs dd and vs a discarding socket, server RSS
# growth.

section_c() {
  serve_available || not_available "this vod has no \`vod serve\` with --media-dir/--output-dir/--database"
  # A fresh server, so that its RSS is not the leftover of transcodes.
  start_server upload
  local body=$WORK/upload/zeros.bin bytes=$((C_MIB * 1048576))
  truncate -s "$bytes" "$body" # sparse: reading it costs the client no disk
  record meta.c.body_mib "$C_MIB"
  local cmd=(curl -sS -o "$WORK/upload-answer" -w '%{http_code} %{time_total} %{size_upload}' -H 'Expect:'
    -H 'Content-Type: video/mp4' -X POST -T "$body" "$SERVER_URL/api/media?title=zeros&filename=zeros.mp4")
  record_raw "c. upload" "$(quote_cmd "${cmd[@]}" | sed "s#$SERVER_URL#http://127.0.0.1:\$PORT#")"
  local dd_cmd=(dd if=/dev/zero of="$SERVER_DIR/media/dd.bin" bs=1M count="$C_MIB" status=none)
  record_cmd "c. disk bound" "${dd_cmd[@]}"
  record_raw "c. client bound" "curl (as above) into Scripts/bench.d/helpers.py http-sink, which reads and discards the body"

  local run code seconds sent growth start end
  for ((run = 1; run <= RUNS; run++)); do
    log "  run $run of $RUNS"
    local answer
    answer=$(measure_upload "${cmd[@]}") || fail "curl failed during the upload ($answer)"
    read -r code seconds sent <<<"$answer"
    growth=$(cat "$WORK/rss-growth")
    record meta.c.answer "HTTP $code \`$(head -c 200 "$WORK/upload-answer" | tr -d '\n|`')\`"
    case $code in
      404 | 405 | 501) not_available "POST /api/media answered HTTP $code" ;;
    esac
    ((sent == bytes)) || fail "curl sent $sent of $bytes bytes; the server answered HTTP $code: $(head -c 200 "$WORK/upload-answer")"
    record c.vod.mibps "$(awk -v b="$bytes" -v s="$seconds" 'BEGIN { printf "%.1f", b / 1048576 / s }')"
    record c.vod.rss_growth_kb "$growth"
    log "  upload: $C_MIB MiB in $seconds s, HTTP $code, RSS growth $((growth / 1024)) MiB"
    sync
    start=$(date +%s.%N)
    "${dd_cmd[@]}"
    end=$(date +%s.%N)
    rm -f "$SERVER_DIR/media/dd.bin"
    record c.dd.mibps "$(awk -v m="$C_MIB" -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", m / (b - a) }')"
    log "  dd: $C_MIB MiB in $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }') s"
    # The client bound: the same curl into a socket that discards the body.
    rm -f "$WORK/sink.port"
    helper http-sink "$WORK/sink.port" &
    local sink=$! i
    register_pid "$sink" "HTTP sink"
    for ((i = 0; i < 100; i++)); do [[ -s $WORK/sink.port ]] && break; sleep 0.1; done
    [[ -s $WORK/sink.port ]] || fail "the HTTP sink did not start"
    answer=$(curl -sS -o /dev/null -w '%{http_code} %{time_total} %{size_upload}' -H 'Expect:' \
      -H 'Content-Type: video/mp4' -X POST -T "$body" "http://127.0.0.1:$(cat "$WORK/sink.port")/api/media") ||
      fail "curl into the HTTP sink failed"
    wait "$sink" || fail "the HTTP sink failed"
    read -r code seconds sent <<<"$answer"
    record c.sink.mibps "$(awk -v b="$bytes" -v s="$seconds" 'BEGIN { printf "%.1f", b / 1048576 / s }')"
    log "  curl into a discarding socket: $C_MIB MiB in $seconds s"
  done
  [[ $(cat "$WORK/rss-reset") == 1 ]] ||
    record meta.note.c_hwm "Could not reset VmHWM through /proc/PID/clear_refs; RSS growth is from 50 ms samples only."
  stop_pid "$SERVER_PID"
}
