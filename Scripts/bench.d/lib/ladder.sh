# shellcheck shell=bash
# The ladder against one ffmpeg CLI process (sections a, f, g and i): the reference command, the runs, PSNR per rung.

# The languages (RFC 5646) of the source's audio tracks when the reference writes each as an audio-only
# rendition (section i); empty: the first audio track is encoded into every rung, as vod does with one track.
ALT_AUDIO_LANGS=()

# ffmpeg_ladder_cmd SOURCE OUT [FILTER [GOP [OUTPUT_OPTION...]]]: sets FFMPEG_CMD to the reference for the
# rungs in RUNGS: one ffmpeg process, one decode, FILTER (vod's picture correction, at source size) if any,
# split, the same scales and encoder settings, HLS out; GOP frames between IDRs (default $GOP, 2 s at 30 fps).
# With ALT_AUDIO_LANGS, the rungs are video-only and audio track j is rendition audio_j of one audio group
# (the first the default), each AAC encoded once.
ffmpeg_ladder_cmd() {
  local src=$1 out=$2 filter=${3:-} gop=${4:-$GOP} i name size kbps graph="" maps=() rates=() streams=""
  shift $(($# < 4 ? $# : 4))
  graph="[0:v]${filter:+$filter,}split=${#RUNGS[@]}"
  for i in "${!RUNGS[@]}"; do graph+="[s$i]"; done
  for i in "${!RUNGS[@]}"; do
    IFS=: read -r name size kbps <<<"${RUNGS[$i]}"
    graph+=";[s$i]scale=${size/x/:}[v$i]"
    maps+=(-map "[v$i]")
    rates+=("-b:v:$i" "${kbps}k" "-maxrate:v:$i" "$((kbps * 11 / 10))k" "-bufsize:v:$i" "$((kbps * 2))k")
    if ((${#ALT_AUDIO_LANGS[@]})); then
      streams+="${streams:+ }v:$i,agroup:aud,name:$name"
    else
      streams+="${streams:+ }v:$i,a:$i,name:$name"
    fi
  done
  if ((${#ALT_AUDIO_LANGS[@]})); then
    for i in "${!ALT_AUDIO_LANGS[@]}"; do
      maps+=(-map "0:a:$i")
      streams+=" a:$i,agroup:aud,language:${ALT_AUDIO_LANGS[$i]}"
      ((i > 0)) || streams+=",default:yes"
      streams+=",name:audio_$i"
    done
  else
    for i in "${!RUNGS[@]}"; do maps+=(-map 0:a); done
  fi
  FFMPEG_CMD=(ffmpeg -hide_banner -nostdin -y -i "$src" -filter_complex "$graph" "${maps[@]}"
    -c:v libx264 -preset "$PRESET" -profile:v high -pix_fmt yuv420p "$@"
    -g "$gop" -keyint_min "$gop" -sc_threshold 0 -flags +cgop "${rates[@]}"
    -c:a aac -b:a 128k -ar 48000 -ac 2
    -f hls -hls_time 6 -hls_playlist_type vod -hls_segment_filename "$out/%v/segment_%03d.ts"
    -master_pl_name master.m3u8 -var_stream_map "$streams" "$out/%v/index.m3u8")
}

# psnr SECTION TOOL RUNG PLAYLIST SOURCE SIZE [FILTER]: PSNR of one rung, read through its media playlist,
# against the source (through FILTER, the reference's picture correction at source size, if any) scaled to the
# rung's size with bicubic.
psnr() {
  local section=$1 tool=$2 rung=$3 playlist=$4 src=$5 size=$6 filter=${7:-} average y
  local logfile=$WORK/$section/psnr-$tool-$rung.log
  local cmd=(ffmpeg -hide_banner -nostdin -nostats -i "$playlist" -i "$src" -lavfi
    "[0:v]setpts=PTS-STARTPTS[dist];[1:v]${filter:+$filter,}scale=${size/x/:}:flags=bicubic,setpts=PTS-STARTPTS[ref];[dist][ref]psnr"
    -f null -)
  record_cmd "$section. PSNR of a rung ($tool)" "${cmd[@]}"
  "${cmd[@]}" >"$logfile" 2>&1 || { tail -n 20 "$logfile" >&2; fail "PSNR of $tool $rung failed"; }
  read -r average y < <(helper parse-psnr "$logfile")
  record "$section.$tool.psnr.$rung" "$average"
  record "$section.$tool.psnr_y.$rung" "$y"
  log "  PSNR $tool $rung: $average dB (Y $y dB)"
}

# plan_rungs SECTION WIDTHxHEIGHT: sets RUNGS to the rungs of LADDER that fit in the source (vod never
# upscales) and records them as the section's ladder for the report.
plan_rungs() {
  local section=$1 source_size=$2 width=${2%x*} height=${2#*x} entry name size kbps names="" ladder_text="" skipped=""
  RUNGS=()
  for entry in "${LADDER[@]}"; do
    IFS=: read -r name size kbps <<<"$entry"
    if ((${size%x*} > width || ${size#*x} > height)); then
      skipped+="${skipped:+, }$name"
      continue
    fi
    RUNGS+=("$entry")
    names+="$name "
    ladder_text+="${ladder_text:+, }$name $size @ ${kbps} kb/s"
  done
  ((${#RUNGS[@]})) || fail "no rung of the ladder fits in a $source_size source"
  record "meta.$section.rungs" "$names"
  if ((${#VOD_LADDER_ARGS[@]})); then
    ladder_text+=" (given to vod with --ladder)"
  else
    ladder_text+=" (vod's default ladder, no --ladder)"
  fi
  [[ -z $skipped ]] || ladder_text+="; no $skipped rung: vod does not upscale a ${height}-line source"
  record "meta.$section.ladder" "$ladder_text"
}

# ladder_vs_cli SECTION SOURCE [FILTER [GOP [OUTPUT_OPTION...]]]: the alternating runs of `vod transcode` and
# of the reference (see ffmpeg_ladder_cmd) on SOURCE for the rungs in RUNGS, then the PSNR of every rung of
# both against the same reference picture (SOURCE through FILTER, scaled bicubic to the rung).
ladder_vs_cli() {
  local section=$1 src=$2 filter=${3:-} run entry name size kbps dir=$WORK/$1 stem
  shift 2
  stem=$(basename "${src%.*}")
  for ((run = 1; run <= RUNS; run++)); do
    log "  run $run of $RUNS"
    rm -rf "$dir"
    mkdir -p "$dir/vod" "$dir/ffmpeg"
    local vod_cmd=("$VOD" transcode "$src" --output "$dir/vod" --rate-control fixed "${VOD_LADDER_ARGS[@]}")
    record_cmd "$section. vod" /usr/bin/time -f '%e %U %S %M' "${vod_cmd[@]}"
    timed "$section.vod" "$dir/vod.log" "${vod_cmd[@]}"
    ffmpeg_ladder_cmd "$src" "$dir/ffmpeg" "$@"
    record_cmd "$section. ffmpeg CLI" /usr/bin/time -f '%e %U %S %M' "${FFMPEG_CMD[@]}"
    timed "$section.ffmpeg" "$dir/ffmpeg.log" "${FFMPEG_CMD[@]}"
  done
  for entry in "${RUNGS[@]}"; do
    IFS=: read -r name size kbps <<<"$entry"
    psnr "$section" vod "$name" "$dir/vod/$stem/$name/index.m3u8" "$src" "$size" "$filter"
    psnr "$section" ffmpeg "$name" "$dir/ffmpeg/$name/index.m3u8" "$src" "$size" "$filter"
  done
}

# describe_rung PLAYLIST: the rung's picture as written, for the report: size, rate, the scan of its first
# frame, colour tags.
describe_rung() {
  ffprobe -v error -select_streams v:0 -read_intervals '%+#1' -show_entries \
    stream=width,height,r_frame_rate,color_range,color_primaries,color_transfer,color_space:frame=interlaced_frame \
    -of default=noprint_wrappers=1 "$1" |
    awk -F= '{ v[$1] = $2 } END { printf "%sx%s, %s fps, %s, %s/%s/%s %s", v["width"], v["height"], v["r_frame_rate"],
      v["interlaced_frame"] == 1 ? "interlaced" : "progressive", v["color_primaries"], v["color_transfer"],
      v["color_space"], v["color_range"] }'
}

# corrected_ladder_vs_cli SECTION SOURCE WIDTHxHEIGHT FILTER GOP [OUTPUT_OPTION...]: a ladder section whose source
# vod corrects at source size with FILTER (f, g): records FILTER, plans the rungs, runs ladder_vs_cli with the CLI
# running FILTER before its split, and records the top rung of both as written (describe_rung).
corrected_ladder_vs_cli() {
  local section=$1 src=$2 size=$3 filter=$4 top
  shift 3
  record "meta.$section.filter" "$filter"
  plan_rungs "$section" "$size"
  ladder_vs_cli "$section" "$src" "$@"
  IFS=: read -r top _ <<<"${RUNGS[-1]}"
  record "meta.$section.top_vod" "$(describe_rung "$WORK/$section/vod/$(basename "${src%.*}")/$top/index.m3u8")"
  record "meta.$section.top_ffmpeg" "$(describe_rung "$WORK/$section/ffmpeg/$top/index.m3u8")"
}
