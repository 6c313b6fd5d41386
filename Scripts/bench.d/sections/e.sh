# shellcheck shell=bash
# e. scale with length: vod transcode of 10, 30 and 90 s 1080p clips: time and peak RSS.

section_e() {
  local seconds run
  declare -A clips
  for seconds in "${E_LENGTHS[@]}"; do clips[$seconds]=$(source_clip "$E_SIZE" "$seconds"); done
  record meta.e.size "${E_SIZE#*x}p${FPS}"
  for ((run = 1; run <= RUNS; run++)); do
    log "  run $run of $RUNS"
    for seconds in "${E_LENGTHS[@]}"; do
      rm -rf "$WORK/e"
      mkdir -p "$WORK/e"
      local cmd=("$VOD" transcode "${clips[$seconds]}" --output "$WORK/e")
      record_cmd "e. vod (each length)" /usr/bin/time -f '%e %U %S %M' "${cmd[@]}"
      timed "e.$seconds" "$WORK/e.log" "${cmd[@]}"
    done
  done
  rm -rf "$WORK/e"
}
