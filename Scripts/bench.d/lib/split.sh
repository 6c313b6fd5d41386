# shellcheck shell=bash
# Split and stitch on a fresh catalog (sections j, k, n, p): a throwaway PostgreSQL and one round of uploading and
# watching.

# start_postgres: a throwaway PostgreSQL from Debian's packages (initdb and pg_ctl in $WORK/pg-<section>, on a free loopback
# port, as the postgres user when run as root); sets PG_BIN, PG_PORT and PG_AS (the command prefix to run as).
start_postgres() {
  local dir=$WORK/pg-$SECTION pid
  PG_BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  [[ -x $PG_BIN/initdb ]] || not_available "no PostgreSQL server from Debian's packages"
  mkdir -p "$dir"
  PG_PORT=$(helper free-port)
  PG_AS=()
  if [[ $(id -u) -eq 0 ]]; then
    chmod o+x "$WORK" # the server's user only needs to reach its own folder
    chown -R postgres "$dir"
    PG_AS=(runuser -u postgres --)
  fi
  "${PG_AS[@]}" "$PG_BIN/initdb" -D "$dir/data" -U vod --auth=trust >/dev/null
  "${PG_AS[@]}" "$PG_BIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
    -o "-p $PG_PORT -k $dir -c listen_addresses=127.0.0.1" start </dev/null >/dev/null 2>&1 ||
    fail "PostgreSQL did not start: $(tail -n 3 "$dir/server.log")"
  pid=$(head -n 1 "$dir/data/postmaster.pid")
  PG_PID=$pid
  register_pid "$pid" postgres
  record meta.j.postgres "$("$PG_BIN/postgres" --version)"
  log "  PostgreSQL pid $pid on 127.0.0.1:$PG_PORT"
}

# split_round BACKEND WORKERS SOURCE NAME RUN [SECTION]: a fresh catalog and N transcoders (in-process `vod serve --workers N`
# on SQLite, or N `vod worker` processes beside an API node on PostgreSQL), one upload of SOURCE, and what the
# helper ROUND_WATCH measures from curl's return (watch-ready: the times to playable and to ready); records each
# figure it prints as SECTION.NAME.FIGURE, e.g. k.60s.sqlite1.ready_s (SECTION k unless given; the servers also
# get K_SPLIT_ARGS).
ROUND_WATCH=watch-ready
split_round() {
  local backend=$1 workers=$2 src=$3 name=$4 round=${4//./_}_r$5 section=${6:-k} database port t_end id result i code pids=()
  local dir=$WORK/$section/$round
  rm -rf "$dir"
  mkdir -p "$dir/media" "$dir/out"
  if [[ $backend == sqlite ]]; then
    database=$dir/vod.sqlite
  else
    "${PG_AS[@]}" "$PG_BIN/createdb" -h 127.0.0.1 -p "$PG_PORT" -U vod "$round" >/dev/null
    database=postgres://vod@127.0.0.1:$PG_PORT/$round
  fi
  local storage=(--database "$database" --media-dir "$dir/media" --output-dir "$dir/out")
  port=$(helper free-port)
  local serve=("$VOD" serve --host 127.0.0.1 --port "$port" "${storage[@]}" "${VOD_LADDER_ARGS[@]}" "${K_SPLIT_ARGS[@]}" --log-level warning)
  if [[ $backend == sqlite ]]; then
    "${serve[@]}" --workers "$workers" >"$dir/serve.log" 2>&1 &
  else
    "${serve[@]}" --workers 0 >"$dir/serve.log" 2>&1 &
  fi
  pids+=($!)
  register_pid "$!" "vod serve ($section $name)"
  if [[ $backend == postgres ]]; then
    for ((i = 0; i < workers; i++)); do
      "$VOD" worker "${storage[@]}" "${VOD_LADDER_ARGS[@]}" "${K_SPLIT_ARGS[@]}" --log-level warning >"$dir/worker$i.log" 2>&1 &
      pids+=($!)
      register_pid "$!" "vod worker ($section $name $i)"
    done
  fi
  helper wait-http "http://127.0.0.1:$port/health" 60 "${pids[0]}" >/dev/null || fail "$section $name: vod serve did not start"
  code=$(curl -sS -o "$dir/upload.json" -w '%{http_code}' -H 'Expect:' -H 'Content-Type: video/mp4' \
    -X POST -T "$src" "http://127.0.0.1:$port/api/media?title=bench&filename=$(basename "$src")")
  t_end=$(date +%s.%N)
  [[ $code == 201 ]] || fail "$section $name: upload answered HTTP $code: $(head -c 300 "$dir/upload.json")"
  id=$(helper json-field "$dir/upload.json" id)
  result=$(helper "$ROUND_WATCH" "http://127.0.0.1:$port" "$id" "$t_end" "$READY_TIMEOUT")
  for i in "${pids[@]}"; do stop_pid "$i"; done
  local figure value measured=""
  while read -r figure value; do
    record "$section.$name.$figure" "$value"
    measured+=" $figure $value,"
  done < <(helper figures "$result")
  log "  $name:${measured%,}"
}

# ladder_name: the ladder the servers get, as --ladder spells it, or "vod's default".
ladder_name() { ((${#VOD_LADDER_ARGS[@]})) && echo "${VOD_LADDER_ARGS[1]}" || echo "vod's default"; }
