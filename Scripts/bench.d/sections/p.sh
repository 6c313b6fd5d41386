# shellcheck shell=bash
# p. watchable: a 3-minute 1080p upload with 1 and 2 in-process transcoders on SQLite and 2 `vod worker` processes on
# PostgreSQL: time to playable and to ready, and how long a 1× player waits in each rendition.

# One upload of a P_SECONDS clip, split at the defaults, to each of `vod serve` (its one in-process transcoder),
# `vod serve --workers 2`, both on SQLite, and an API node with 2 `vod worker` processes on PostgreSQL; the
# helper watch-playback (Scripts/bench.d/playback.py) plays each rendition at 1× from the moment the title says
# playable. Records p.CONFIG.{playable_s,ready_s,stall_s.RENDITION,stall_max_s}; CONFIG is sqlite1, sqlite2 or
# postgres2.
section_p() {
  local run src K_SPLIT_ARGS=("${P_SPLIT_ARGS[@]}") ROUND_WATCH=watch-playback
  src=$(source_clip "$P_SIZE" "$P_SECONDS")
  record meta.p.split "${P_SPLIT_ARGS[*]:-at the defaults (--split-after 120 --chunk-seconds 30)}"
  record meta.p.source "a ${P_SECONDS} s ${P_SIZE#*x}p${FPS} clip with one stereo AAC track (\`$(basename "$src")\`), ladder $(ladder_name)"
  start_postgres
  record_raw "p. SQLite (N = 1, the default, and 2)" \
    "$(quote_cmd "$VOD" serve --workers '$N' --database '$WORK/p/$ROUND/vod.sqlite' --media-dir '$WORK/p/$ROUND/media' --output-dir '$WORK/p/$ROUND/out' "${VOD_LADDER_ARGS[@]}")"
  record_raw "p. PostgreSQL (an API node with --workers 0, and 2 of these)" \
    "$(quote_cmd "$VOD" worker --database 'postgres://vod@127.0.0.1:$PG_PORT/$ROUND' --media-dir '$WORK/p/$ROUND/media' --output-dir '$WORK/p/$ROUND/out' "${VOD_LADDER_ARGS[@]}")"
  record_raw "p. the player, from curl's return at \$T_END (wall clock, s)" \
    "python3 Scripts/bench.d/helpers.py watch-playback http://127.0.0.1:\$PORT \$ID \$T_END $READY_TIMEOUT"
  for ((run = 1; run <= RUNS; run++)); do
    log "  run $run of $RUNS"
    split_round sqlite 1 "$src" sqlite1 "$run" p
    # Two in-process workers take the path of one; quick mode (CI) leaves them out for time.
    ((QUICK)) || split_round sqlite 2 "$src" sqlite2 "$run" p
    split_round postgres 2 "$src" postgres2 "$run" p
  done
  stop_pid "$PG_PID"
}
