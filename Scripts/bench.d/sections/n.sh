# shellcheck shell=bash
# n. fast start: time to playable and to ready of a's source with one transcoder, with the fast start (a 2 s superfast
# first segment) and without it.

# The source of a (the top of the ladder: 4k in full mode), one upload to one in-process transcoder on SQLite,
# with the fast start (the defaults) and without it (a first segment as long as the others, at the rung's own
# preset), alternating; records n.fast.* and n.slow.* as split_round does.
section_n() {
  local run src K_SPLIT_ARGS=()
  local without=(--first-segment-duration 6 --start-preset veryfast)
  src=$(source_clip "$A_SIZE" "$A_SECONDS")
  record meta.n.source "a ${A_SECONDS} s ${A_SIZE#*x}p${FPS} clip (\`$(basename "$src")\`), ladder $(ladder_name)"
  record_raw "n. with the fast start (defaults)" \
    "$(quote_cmd "$VOD" serve --workers 1 --database '$WORK/n/$ROUND/vod.sqlite' --media-dir '$WORK/n/$ROUND/media' --output-dir '$WORK/n/$ROUND/out' "${VOD_LADDER_ARGS[@]}")"
  record_raw "n. without it" \
    "$(quote_cmd "$VOD" serve --workers 1 --database '$WORK/n/$ROUND/vod.sqlite' --media-dir '$WORK/n/$ROUND/media' --output-dir '$WORK/n/$ROUND/out' "${VOD_LADDER_ARGS[@]}" "${without[@]}")"
  for ((run = 1; run <= RUNS; run++)); do
    log "  run $run of $RUNS"
    K_SPLIT_ARGS=()
    split_round sqlite 1 "$src" fast "$run" n
    K_SPLIT_ARGS=("${without[@]}")
    split_round sqlite 1 "$src" slow "$run" n
  done
}
