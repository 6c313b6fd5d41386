# shellcheck shell=bash
# Scripts/bench's plumbing: the results file, logging, the processes it started and how a section runs (sourced by the
# runner).

STARTED=$(date +%s)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/vod-bench.XXXXXX")
RESULTS=$WORK/results.tsv
: >"$RESULTS"
: >"$WORK/pids"
FAILED=0

log() { printf '[bench %s] %s\n' "$(date +%T)" "$*"; }

# record KEY VALUE: one measurement or fact for the report (see Scripts/bench.d/figures.py).
record() { printf '%s\t%s\n' "$1" "$2" >>"$RESULTS"; }

# The command as one copy-pasteable line, with the run's paths replaced by $WORK, $CACHE and vod.
quote_cmd() {
  local out="" arg
  for arg in "$@"; do
    if [[ $arg =~ ^[A-Za-z0-9_./:=@,+%-]+$ ]]; then out+="$arg "; else out+="'${arg//\'/\'\\\'\'}' "; fi
  done
  out=${out% }
  [[ -n $VOD ]] && out=${out//"$VOD"/vod}
  out=${out//"$WORK"/\$WORK}
  out=${out//"$CACHE"/\$CACHE}
  printf '%s' "$out"
}

# record_cmd LABEL COMMAND...: the exact command of a figure (the report keeps the first one per label).
record_cmd() {
  local label=$1; shift
  record "cmd.$label" "$(quote_cmd "$@")"
}

# record_raw LABEL TEXT: a command already written out as text.
record_raw() { record "cmd.$1" "$2"; }

# fail MESSAGE: ends the current section as failed, with MESSAGE in the report.
fail() {
  echo "$1" >&2
  printf '%s\n' "$1" >"$WORK/.error-msg"
  exit 1
}

# Registers a process this script started, so that the EXIT trap stops it whatever happens.
register_pid() { echo "$1 $2" >>"$WORK/pids"; }

# stop_pid PID: SIGTERM, then SIGKILL after 15 s. Only ever called with pids this script started.
stop_pid() {
  local pid=$1 i
  kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < 150; i++)); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.1
  done
  kill -KILL "$pid" 2>/dev/null || true
}

SECTION_PID=""
cleanup() {
  local status=$? pid name
  set +e
  trap '' PIPE # a reader of our output that went away must not stop the clean-up
  if [[ -n $SECTION_PID ]] && kill -0 "$SECTION_PID" 2>/dev/null; then
    log "interrupted: stopping the running section (process group $SECTION_PID)"
    kill -TERM -- "-$SECTION_PID" 2>/dev/null || true
    wait "$SECTION_PID" 2>/dev/null || true
  fi
  if [[ -s $WORK/pids ]]; then
    while read -r pid name; do
      if kill -0 "$pid" 2>/dev/null; then
        log "stopping $name (pid $pid)"
        stop_pid "$pid"
      fi
    done < <(tac "$WORK/pids")
  fi
  rm -f "$CACHE"/.tmp-$$-*
  if ((KEEP)); then log "kept $WORK"; else rm -rf "$WORK"; fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 141' PIPE

helper() { python3 "$HELPERS" "$@"; }

# timed KEY LOG COMMAND...: runs COMMAND under /usr/bin/time; records KEY.wall, KEY.cpu (user+sys, s) and
# KEY.rss_kb (peak RSS).
timed() {
  local key=$1 output=$2; shift 2
  local times=$WORK/.time wall user sys rss
  if ! /usr/bin/time -f '%e %U %S %M' -o "$times" "$@" >"$output" 2>&1; then
    tail -n 20 "$output" >&2
    fail "failed: $(quote_cmd "$@")"
  fi
  read -r wall user sys rss < <(tail -n 1 "$times")
  record "$key.wall" "$wall"
  record "$key.cpu" "$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')"
  record "$key.rss_kb" "$rss"
  log "  $key: wall ${wall} s, cpu $(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }') s, peak RSS $((rss / 1024)) MiB"
}

# Sections run in subshells with errexit, so that one failing section is reported and the others still run.
# Inside, not_available REASON ends the section as "not available" (a missing server piece, not an error).
not_available() {
  record "na.$SECTION" "$1"
  log "  not available: $1"
  exit 0
}

run_section() {
  local letter=$1 title=$2 function=$3 status
  if [[ ,$ONLY, != *",$letter,"* ]]; then
    record "na.$letter" "not run (--only $ONLY)"
    return 0
  fi
  log "== $letter. $title"
  # In the background, as its own process group (set -m), so that an interrupt stops it and all it started.
  (
    set -eE
    SECTION=$letter
    trap - INT TERM
    trap 'echo "line $LINENO: $BASH_COMMAND (exit $?)" >"$WORK/.error"' ERR
    "$function"
  ) </dev/null &
  SECTION_PID=$!
  set +e
  wait "$SECTION_PID"
  status=$?
  set -e
  SECTION_PID=""
  if ((status != 0)); then
    FAILED=1
    local reason="exit $status"
    [[ -s $WORK/.error ]] && reason="$(head -n 1 "$WORK/.error")"
    [[ -s $WORK/.error-msg ]] && reason="$(head -n 1 "$WORK/.error-msg")"
    record "error.$letter" "$reason"
    log "  FAILED: $reason"
  fi
  rm -f "$WORK/.error" "$WORK/.error-msg"
}
