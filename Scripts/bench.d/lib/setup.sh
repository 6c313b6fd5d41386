# shellcheck shell=bash
# Scripts/bench's set-up: the packages it needs, the vod it measures and the machine it runs on.

ensure_packages() {
  local packages=(ffmpeg nginx wrk time curl python3 postgresql) missing=() package sudo=""
  for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
  done
  ((${#missing[@]})) || return 0
  [[ $(id -u) -eq 0 ]] || sudo=sudo
  log "installing ${missing[*]}"
  $sudo apt-get update -qq
  # RUNLEVEL=1: invoke-rc.d then does not start the packaged nginx service; the bench runs its own.
  $sudo env DEBIAN_FRONTEND=noninteractive RUNLEVEL=1 apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

build_vod() {
  if [[ -n $VOD ]]; then
    [[ -x $VOD ]] || { echo "Scripts/bench: --vod $VOD is not executable" >&2; exit 1; }
    VOD=$(cd "$(dirname "$VOD")" && pwd)/$(basename "$VOD")
    return
  fi
  log "building vod (swift build -c release --product vod)"
  if ! swift build -c release --product vod >"$WORK/build.log" 2>&1; then
    tail -n 30 "$WORK/build.log" >&2
    echo "Scripts/bench: the release build failed" >&2
    exit 1
  fi
  VOD=$ROOT/.build/release/vod
  BUILT=1
}

describe_machine() {
  local cpu memory_kb
  cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
  memory_kb=$(awk '/^MemTotal/ { print $2 }' /proc/meminfo)
  record meta.machine.cpu "${cpu:-unknown} ($(uname -m))"
  record meta.machine.cores "$(nproc)"
  record meta.machine.memory "$(awk -v k="$memory_kb" 'BEGIN { printf "%.1f GiB", k / 1048576 }')"
  record meta.machine.kernel "$(uname -r)"
  record meta.machine.os "$(. /etc/os-release && echo "$PRETTY_NAME")"
  record meta.machine.load_start "$(cut -d' ' -f1-3 /proc/loadavg)"
  local commit dirty=""
  commit=$(git -C "$ROOT" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
  [[ -n $(git -C "$ROOT" status --porcelain -- Sources Package.swift 2>/dev/null) ]] && dirty=" + uncommitted changes in Sources/"
  if ((BUILT)); then
    record meta.version.vod "$commit$dirty (built by the bench: \`swift build -c release --product vod\`)"
  else
    record meta.version.vod "$commit$dirty (binary given with --vod: \`$VOD\`)"
  fi
  record meta.version.swift "$(swift --version 2>/dev/null | head -n 1 || echo unknown)"
  record meta.version.ffmpeg "$(ffmpeg -hide_banner -version | head -n 1 | cut -d' ' -f1-3) (Debian)"
  record meta.version.x264 "$(dpkg-query -W -f='${Package} ${Version}' 'libx264-1*' 2>/dev/null | head -n 1)"
  record meta.version.nginx "$(nginx -v 2>&1 | sed 's/^nginx version: //')"
  record meta.version.wrk "$(wrk -v 2>&1 | head -n 1 | cut -d' ' -f1-2)"
  record meta.version.curl "$(curl --version | head -n 1 | cut -d' ' -f1-2)"
  record meta.mode "$( ((QUICK)) && echo quick || echo full)"
  record meta.runs "$RUNS"
  record meta.date "$(date -u '+%Y-%m-%d %H:%M UTC')"
  local load
  load=$(cut -d' ' -f1 /proc/loadavg)
  if awk -v l="$load" -v c="$(nproc)" 'BEGIN { exit !(l > c / 2) }'; then
    record meta.note.load "The load average was $load on $(nproc) cores when the bench started: other work was running, so the figures are noisier than on a quiet machine."
    log "warning: load average $load on $(nproc) cores; figures will be noisy"
  fi
}
