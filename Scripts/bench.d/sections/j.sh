# shellcheck shell=bash
# j. scale-out: jobs per minute of short clips with 1, 2 and 4 `vod worker` processes (--threads 1) on a throwaway
# PostgreSQL, against one in-process worker (`vod serve`) on SQLite.

# scale_round CONFIG WORKERS RUN: imports J_JOBS copies of the clip into a fresh catalog with nothing running, then
# starts the transcoders and times them until every item is ready: WORKERS `vod worker` processes on
# PostgreSQL, or with WORKERS=0 one `vod serve` with its in-process worker on SQLite. Records j.CONFIG.jobs_min.
scale_round() {
  local config=$1 workers=$2 name=$1_r$3 database started elapsed ready i port pids=()
  local dir=$WORK/j/$name
  rm -rf "$dir"
  mkdir -p "$dir/media" "$dir/out"
  if ((workers == 0)); then
    database=$dir/vod.sqlite
  else
    "${PG_AS[@]}" "$PG_BIN/createdb" -h 127.0.0.1 -p "$PG_PORT" -U vod "$name" >/dev/null
    database=postgres://vod@127.0.0.1:$PG_PORT/$name
  fi
  local storage=(--database "$database" --media-dir "$dir/media" --output-dir "$dir/out")
  local clips=()
  for ((i = 0; i < J_JOBS; i++)); do clips+=("$J_SRC"); done
  "$VOD" import "${storage[@]}" "${clips[@]}" >"$dir/import.log" 2>&1 || fail "vod import failed: $(tail -n 3 "$dir/import.log")"
  port=$(helper free-port)
  local serve=("$VOD" serve --host 127.0.0.1 --port "$port" "${storage[@]}" "${VOD_LADDER_ARGS[@]}" --log-level warning)
  started=$(date +%s.%N)
  if ((workers == 0)); then
    "${serve[@]}" --workers 1 >"$dir/serve.log" 2>&1 &
  else
    "${serve[@]}" --workers 0 >"$dir/serve.log" 2>&1 &
  fi
  pids+=($!)
  register_pid "$!" "vod serve (j $name)"
  for ((i = 0; i < workers; i++)); do
    "$VOD" worker "${storage[@]}" "${VOD_LADDER_ARGS[@]}" --threads 1 --log-level warning >"$dir/worker$i.log" 2>&1 &
    pids+=($!)
    register_pid "$!" "vod worker (j $name $i)"
  done
  while true; do
    ready=$(curl -sf "http://127.0.0.1:$port/api/media?status=ready" 2>/dev/null | python3 -c 'import json, sys; print(len(json.load(sys.stdin)))' 2>/dev/null || echo 0)
    ((ready >= J_JOBS)) && break
    elapsed=$(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { printf "%d", b - a }')
    ((elapsed < READY_TIMEOUT)) || fail "j $name: $ready of $J_JOBS ready after $READY_TIMEOUT s"
    sleep 0.2
  done
  elapsed=$(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
  for i in "${pids[@]}"; do stop_pid "$i"; done
  record "j.$config.jobs_min" "$(awk -v n="$J_JOBS" -v t="$elapsed" 'BEGIN { printf "%.1f", n * 60 / t }')"
  log "  $name: $J_JOBS jobs in $elapsed s"
}

section_j() {
  local run workers
  J_SRC=$(source_clip "$J_SIZE" "$J_SECONDS")
  record meta.j.clip "$J_JOBS copies of a ${J_SECONDS} s ${J_SIZE#*x}p${FPS} clip (\`$(basename "$J_SRC")\`)"
  record meta.j.workers "${J_WORKERS[*]}"
  start_postgres
  record_raw "j. PostgreSQL workers (each round; N of them)" \
    "$(quote_cmd "$VOD" worker --database 'postgres://vod@127.0.0.1:$PG_PORT/$ROUND' --media-dir '$WORK/j/$ROUND/media' --output-dir '$WORK/j/$ROUND/out' "${VOD_LADDER_ARGS[@]}" --threads 1)"
  record_raw "j. SQLite reference" \
    "$(quote_cmd "$VOD" serve --workers 1 --database '$WORK/j/$ROUND/vod.sqlite' --media-dir '$WORK/j/$ROUND/media' --output-dir '$WORK/j/$ROUND/out' "${VOD_LADDER_ARGS[@]}")"
  for ((run = 1; run <= RUNS; run++)); do
    log "  run $run of $RUNS"
    scale_round sqlite 0 "$run"
    for workers in "${J_WORKERS[@]}"; do scale_round "pg$workers" "$workers" "$run"; done
  done
  stop_pid "$PG_PID"
}
