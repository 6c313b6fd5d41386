# shellcheck shell=bash
# u. fMP4 against MPEG-TS: the same source and ladder transcoded by `vod transcode` into MPEG-TS segments (the default)
# and into fMP4 (CMAF) segments (`--segment-format fmp4`), one after the other in each run: the wall and CPU time of
# each, and the bytes of their media files (segments and init segments, video and audio; playlists left out).

section_u() {
  local src run format dest
  mkdir -p "$WORK/u"
  src=$(source_clip "$U_SIZE" "$U_SECONDS")
  record meta.u.source "synthetic ${U_SIZE#*x}p${FPS} ${U_SECONDS} s (the test pattern of a, AAC stereo), \`$(basename "$src")\`"
  record_raw "u. vod, MPEG-TS" "$(quote_cmd "$VOD" transcode SOURCE --output OUT --segment-format ts "${VOD_LADDER_ARGS[@]}")"
  record_raw "u. vod, fMP4" "$(quote_cmd "$VOD" transcode SOURCE --output OUT --segment-format fmp4 "${VOD_LADDER_ARGS[@]}")"
  for ((run = 1; run <= RUNS; run++)); do
    log "  run $run of $RUNS"
    for format in ts fmp4; do
      dest=$WORK/u/$format
      timed "u.$format" "$WORK/u/$format.out" \
        "$VOD" transcode "$src" --output "$dest" --segment-format "$format" "${VOD_LADDER_ARGS[@]}"
      record "u.$format.bytes" "$(find "$dest" -type f \( -name '*.ts' -o -name '*.m4s' -o -name 'init.mp4' \) -printf '%s\n' |
        awk '{ total += $1 } END { print total + 0 }')"
      rm -rf "$dest"
    done
  done
}
