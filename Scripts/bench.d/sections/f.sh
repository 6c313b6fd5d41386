# shellcheck shell=bash
# f. HDR → ladder: as a, from a 1080p30 HEVC Main10 HLG clip, which vod tone-maps to SDR BT.709; the CLI runs the same
# filter chain before its split.

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

# What vod does to an HLG picture (transfer 18; PQ would be 16) at source size, before its rungs scale it:
# to linear light with SDR white at 1.0, BT.709 primaries, Hable's curve, then BT.709 limited-range 8-bit.
HLG_TO_SDR='zscale=tin=18:pin=9:min=9:rin=limited:t=linear:npl=100,format=gbrpf32le,zscale=p=709,tonemap=tonemap=hable:desat=0,zscale=t=709:m=709:r=limited:dither=ordered,format=yuv420p'
SDR_TAGS=(-color_primaries bt709 -color_trc bt709 -colorspace bt709 -color_range tv)

section_f() {
  local src
  src=$(hlg_clip "$F_SIZE" "$F_SECONDS")
  record meta.f.source "synthetic ${F_SIZE#*x}p${FPS} ${F_SECONDS} s HDR (the test pattern of a with its BT.709 code values converted into HLG BT.2020 10-bit, HEVC Main10 CRF 20 at $(ffprobe -v error -show_entries format=bit_rate -of csv=p=0 "$src" | awk '{ printf "%.0f", $1 / 1e6 }') Mb/s tagged bt2020/arib-std-b67/bt2020nc, no light-level metadata, AAC 48 kHz stereo), \`$(basename "$src")\`"
  corrected_ladder_vs_cli f "$src" "$F_SIZE" "$HLG_TO_SDR" "$GOP" "${SDR_TAGS[@]}"
}
