# shellcheck shell=bash
# d. time to ready: a 60 s 1080p clip, from the end of its upload to the first segment on disk and to "ready".

section_d() {
  serve_available || not_available "this vod has no \`vod serve\` with --media-dir/--output-dir/--database"
  local src run
  src=$(source_clip "$D_SIZE" "$D_SECONDS")
  record meta.d.clip "${D_SECONDS} s ${D_SIZE#*x}p${FPS} clip"
  # A fresh server for each run, so that no run waits behind another's job or shares its caches.
  for ((run = 1; run <= RUNS; run++)); do
    log "  run $run of $RUNS"
    start_server "ready$run"
    upload_and_wait "$src" 1
    stop_pid "$SERVER_PID"
  done
}
