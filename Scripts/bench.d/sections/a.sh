# shellcheck shell=bash
# a. ladder transcode: vod transcode vs one ffmpeg CLI process (lib/ladder.sh): wall, CPU, peak RSS, PSNR per rung.

section_a() {
  local src
  src=$(source_clip "$A_SIZE" "$A_SECONDS")
  record meta.a.source "synthetic ${A_SIZE#*x}p${FPS} ${A_SECONDS} s (${A_SIZE} test pattern with temporal noise, H.264 High CRF 20 at $(ffprobe -v error -show_entries format=bit_rate -of csv=p=0 "$src" | awk '{ printf "%.0f", $1 / 1e6 }') Mb/s, AAC 48 kHz stereo), \`$(basename "$src")\`"
  plan_rungs a "$A_SIZE"
  ladder_vs_cli a "$src"
}
