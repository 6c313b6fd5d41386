# shellcheck shell=bash
# s. HDR kept: what the HDR rung costs. Each HLG phone-like clip (`hlg_clip`) is transcoded by `vod transcode` on
# the defaults (MPEG-TS, whose HDR rung alone is fMP4) with `--hdr sdr` (the tone-mapped SDR ladder alone) and with
# `--hdr keep` (the default: plus the HEVC Main10 rung, docs/engine.md "HDR kept"), one after the other in each
# run; the wall-time ratio's target is at most 1.6× (issue 26).

section_s() {
  local size name run mode clip
  mkdir -p "$WORK/s"
  record_raw "s. vod, SDR ladder alone" "$(quote_cmd "$VOD" transcode CLIP --output OUT --hdr sdr "${VOD_LADDER_ARGS[@]}")"
  record_raw "s. vod, HDR kept" "$(quote_cmd "$VOD" transcode CLIP --output OUT --hdr keep "${VOD_LADDER_ARGS[@]}")"
  for size in "${S_SIZES[@]}"; do
    name=${size#*x}p
    clip=$(hlg_clip "$size" "$S_SECONDS")
    record "meta.s.clip.$name" "${S_SECONDS} s ${name}${FPS} HLG (HEVC Main10)"
  done
  record meta.s.clips "$(for size in "${S_SIZES[@]}"; do printf '%sp ' "${size#*x}"; done)"
  for ((run = 1; run <= RUNS; run++)); do
    log "  run $run of $RUNS"
    for size in "${S_SIZES[@]}"; do
      name=${size#*x}p
      clip=$(hlg_clip "$size" "$S_SECONDS")
      for mode in sdr keep; do
        timed "s.$mode.$name" "$WORK/s/$name-$mode.out" \
          "$VOD" transcode "$clip" --output "$WORK/s/$mode" --hdr "$mode" "${VOD_LADDER_ARGS[@]}"
        rm -rf "$WORK/s/$mode"
      done
      # The summary's rows: the HDR rung, and the SDR rung of its size (average kb/s, column 5).
      record "s.hdr_kbps.$name" "$(awk '$1 ~ /-hdr$/ { print $5 }' "$WORK/s/$name-keep.out")"
      record "meta.s.hdr_rung.$name" "$(awk '$1 ~ /-hdr$/ { print $1 " " $2 }' "$WORK/s/$name-keep.out")"
      record "s.sdr_kbps.$name" "$(awk 'NR == FNR { if ($1 ~ /-hdr$/) size = $2; next } $2 == size && $1 !~ /-hdr$/ { print $5 }' \
        "$WORK/s/$name-keep.out" "$WORK/s/$name-keep.out")"
    done
  done
}
