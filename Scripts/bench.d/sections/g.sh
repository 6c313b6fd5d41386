# shellcheck shell=bash
# g. 1080i → ladder: as a, from a 1080i25 top-field-first H.264 clip, which vod deinterlaces (bwdif) to 25 fps
# progressive; the CLI runs the same bwdif before its split.

# tff_clip WIDTHxHEIGHT SECONDS: the same moving pattern at 50 pictures/s, woven two by two into 25 interlaced
# frames a second (top field first, each field from its own instant: real 50 Hz motion), H.264 High CRF 20
# coded interlaced (+ildct+ilme, tff) and tagged BT.709 limited range, like a broadcast 1080i25 recording.
# The tags keep deinterlacing the only correction vod makes: it takes an untagged SD picture (the --quick
# size) for BT.601 and would convert its colour as well.
tff_clip() {
  local size=$1 seconds=$2 path
  path=$CACHE/src-tff-v1-${size}i25-${seconds}s.mp4
  cached_clip "$path" \
    -f lavfi -i "testsrc2=size=$size:rate=50:duration=$seconds,noise=alls=5:allf=t,tinterlace=mode=interleave_top,setfield=tff" \
    -f lavfi -i "aevalsrc=0.3*sin(2*PI*440*t)|0.3*sin(2*PI*660*t):s=48000:d=$seconds" \
    -c:v libx264 -preset veryfast -crf 20 -pix_fmt yuv420p -g 50 -flags +ildct+ilme -x264-params tff=1 \
    -color_primaries bt709 -color_trc bt709 -colorspace bt709 -color_range tv \
    -c:a aac -b:a 192k -shortest -movflags +faststart
  check_probe "$path" field_order=tt r_frame_rate=25/1 color_primaries=bt709 color_transfer=bt709 color_space=bt709
  printf '%s' "$path"
}

# What vod does to a top-field-first interlaced picture at source size: bwdif, one frame per frame (25 fps
# progressive from 1080i25), every frame (the stream says it is interlaced).
DEINTERLACE_TFF='bwdif=mode=send_frame:parity=tff:deint=all'

section_g() {
  local src
  src=$(tff_clip "$G_SIZE" "$G_SECONDS")
  record meta.g.source "synthetic ${G_SIZE#*x}i25 ${G_SECONDS} s (the test pattern of a at 50 pictures/s woven into 25 top-field-first frames/s, H.264 High coded interlaced CRF 20 at $(ffprobe -v error -show_entries format=bit_rate -of csv=p=0 "$src" | awk '{ printf "%.0f", $1 / 1e6 }') Mb/s tagged bt709, AAC 48 kHz stereo), \`$(basename "$src")\`"
  corrected_ladder_vs_cli g "$src" "$G_SIZE" "$DEINTERLACE_TFF" 50 # an IDR every 2 s at 25 fps
}
