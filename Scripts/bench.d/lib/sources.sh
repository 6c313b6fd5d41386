# shellcheck shell=bash
# The cached synthetic sources every section shares, and the ffprobe checks of a clip's streams.

# cached_clip PATH FFMPEG_ARGUMENT...: makes PATH once with `ffmpeg ARGUMENTS... PATH`, in a temporary file
# that is renamed when complete, so that an interrupted run leaves no half clip in the cache.
cached_clip() {
  local path=$1 tmp
  shift
  [[ -s $path ]] && return 0
  mkdir -p "$CACHE"
  tmp=$CACHE/.tmp-$$-$(basename "$path")
  log "  generating $(basename "$path") (once; cached in .bench-cache/)" >&2
  if ! ffmpeg -hide_banner -nostdin -loglevel error -y "$@" "$tmp" >&2; then
    rm -f "$tmp"
    fail "generating $(basename "$path") failed"
  fi
  mv "$tmp" "$path"
}

# source_clip WIDTHxHEIGHT SECONDS: prints the path of a cached synthetic clip, making it the first time:
# moving test pattern with temporal noise (so that bitrate matters), 30 fps, H.264 High CRF 20 (about
# 16 Mb/s at 1080p and 60 Mb/s at 2160p, like a phone's camera), AAC 192 kb/s 48 kHz stereo tones, MP4 with
# faststart, tagged BT.709 limited range as cameras tag it (untagged SD would be read as BT.601 and converted).
# Made in a temporary file, then renamed; the v3 in the name changes when the recipe does.
source_clip() {
  local size=$1 seconds=$2 path
  path=$CACHE/src-v3-${size}p${FPS}-${seconds}s.mp4
  cached_clip "$path" \
    -f lavfi -i "testsrc2=size=$size:rate=$FPS:duration=$seconds,noise=alls=5:allf=t" \
    -f lavfi -i "aevalsrc=0.3*sin(2*PI*440*t)|0.3*sin(2*PI*660*t):s=48000:d=$seconds" \
    -c:v libx264 -preset veryfast -crf 20 -pix_fmt yuv420p -g "$GOP" \
    -color_primaries bt709 -color_trc bt709 -colorspace bt709 -color_range tv \
    -c:a aac -b:a 192k -shortest -movflags +faststart
  printf '%s' "$path"
}

# hlg_clip WIDTHxHEIGHT SECONDS: the same moving pattern, made HDR: its BT.709 code values converted with
# zscale into HLG (ARIB STD-B67) BT.2020 ones at 100 cd/m² reference white, 10-bit, HEVC Main10 (libx265 CRF
# 20) tagged BT.2020 / HLG / BT.2020 non-constant luminance in the stream (VUI) and the container, with no
# mastering-display or light-level metadata (so vod's tone curve gets no peak), like a phone's HLG video.
hlg_clip() {
  local size=$1 seconds=$2 path
  path=$CACHE/src-hlg-v1-${size}p${FPS}-${seconds}s.mp4
  cached_clip "$path" \
    -f lavfi -i "testsrc2=size=$size:rate=$FPS:duration=$seconds,noise=alls=5:allf=t" \
    -f lavfi -i "aevalsrc=0.3*sin(2*PI*440*t)|0.3*sin(2*PI*660*t):s=48000:d=$seconds" \
    -vf "zscale=tin=709:pin=709:min=709:t=arib-std-b67:p=2020:m=2020_ncl:npl=100,format=yuv420p10le" \
    -c:v libx265 -preset veryfast -crf 20 -profile:v main10 -g "$GOP" -tag:v hvc1 \
    -x265-params "colorprim=bt2020:transfer=arib-std-b67:colormatrix=bt2020nc:log-level=error" \
    -color_primaries bt2020 -color_trc arib-std-b67 -colorspace bt2020nc -color_range tv \
    -c:a aac -b:a 192k -shortest -movflags +faststart
  check_probe "$path" color_primaries=bt2020 color_transfer=arib-std-b67 color_space=bt2020nc
  printf '%s' "$path"
}

# check_probe CLIP KEY=VALUE...: the clip's video stream has these ffprobe stream fields (a source that lost
# its HDR tags or its field order would measure something else).
check_probe() {
  local path=$1 expected found keys=""
  shift
  for expected in "$@"; do keys+="${keys:+,}${expected%%=*}"; done
  found=" $(ffprobe -v error -select_streams v:0 -show_entries "stream=$keys" -of default=noprint_wrappers=1 "$path" | tr '\n' ' ')"
  for expected in "$@"; do
    [[ $found == *" $expected "* ]] || fail "$(basename "$path"): ffprobe says${found% } where $expected was expected"
  done
}

# check_audio_tracks CLIP "CODEC,DEFAULT,LANGUAGE ...": the clip's audio tracks, in order, are these.
check_audio_tracks() {
  local found
  found="$(ffprobe -v error -select_streams a -show_entries stream=codec_name:stream_tags=language:stream_disposition=default \
    -of csv=p=0 "$1" | tr '\n' ' ')"
  [[ $found == "$2" ]] || fail "$(basename "$1"): ffprobe finds the audio tracks ${found% } where ${2% } was expected"
}
