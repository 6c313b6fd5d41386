# shellcheck shell=bash
# f. HDR → ladder: as a, from a 1080p30 HEVC Main10 HLG clip, which vod tone-maps to SDR BT.709; the CLI runs the same
# filter chain before its split.

# What vod does to an HLG picture (transfer 18; PQ would be 16) at source size, before its rungs scale it:
# to linear light with SDR white at 1.0, BT.709 primaries, Hable's curve, then BT.709 limited-range 8-bit.
HLG_TO_SDR='zscale=tin=18:pin=9:min=9:rin=limited:t=linear:npl=100,format=gbrpf32le,zscale=p=709,tonemap=tonemap=hable:desat=0,zscale=t=709:m=709:r=limited:dither=ordered,format=yuv420p'
SDR_TAGS=(-color_primaries bt709 -color_trc bt709 -colorspace bt709 -color_range tv)

section_f() {
  local src
  # The CLI makes the SDR ladder alone: so does vod here, without the HDR rung it keeps by default (section s).
  local VOD_LADDER_ARGS=("${VOD_LADDER_ARGS[@]}" --hdr sdr)
  src=$(hlg_clip "$F_SIZE" "$F_SECONDS")
  record meta.f.source "synthetic ${F_SIZE#*x}p${FPS} ${F_SECONDS} s HDR (the test pattern of a with its BT.709 code values converted into HLG BT.2020 10-bit, HEVC Main10 CRF 20 at $(ffprobe -v error -show_entries format=bit_rate -of csv=p=0 "$src" | awk '{ printf "%.0f", $1 / 1e6 }') Mb/s tagged bt2020/arib-std-b67/bt2020nc, no light-level metadata, AAC 48 kHz stereo), \`$(basename "$src")\`"
  corrected_ladder_vs_cli f "$src" "$F_SIZE" "$HLG_TO_SDR" "$GOP" "${SDR_TAGS[@]}"
}
