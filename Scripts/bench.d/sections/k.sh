# shellcheck shell=bash
# k. split and stitch: time to playable and to ready of 1-, 5- and 20-minute 720p uploads with 1, 2 and 4 transcoders,
# in-process on SQLite and `vod worker` processes on PostgreSQL.

section_k() {
  local run seconds workers backend src
  start_postgres
  record meta.k.size "${K_SIZE#*x}p${FPS}"
  record meta.k.lengths "${K_LENGTHS[*]}"
  record meta.k.workers "${K_WORKERS[*]}"
  record meta.k.split "${K_SPLIT_ARGS[*]:-defaults: --split-after 120 --chunk-seconds 30}"
  record_raw "k. SQLite (N in-process workers)" \
    "$(quote_cmd "$VOD" serve --workers '$N' --database '$WORK/k/$ROUND/vod.sqlite' --media-dir '$WORK/k/$ROUND/media' --output-dir '$WORK/k/$ROUND/out' "${VOD_LADDER_ARGS[@]}" "${K_SPLIT_ARGS[@]}")"
  record_raw "k. PostgreSQL (an API node and N of these)" \
    "$(quote_cmd "$VOD" worker --database 'postgres://vod@127.0.0.1:$PG_PORT/$ROUND' --media-dir '$WORK/k/$ROUND/media' --output-dir '$WORK/k/$ROUND/out' "${VOD_LADDER_ARGS[@]}" "${K_SPLIT_ARGS[@]}")"
  for ((run = 1; run <= RUNS; run++)); do
    log "  run $run of $RUNS"
    for seconds in "${K_LENGTHS[@]}"; do
      src=$(source_clip "$K_SIZE" "$seconds")
      for backend in sqlite postgres; do
        for workers in "${K_WORKERS[@]}"; do split_round "$backend" "$workers" "$src" "${seconds}s.$backend$workers" "$run"; done
      done
    done
  done
  stop_pid "$PG_PID"
}
