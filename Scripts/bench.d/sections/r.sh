# shellcheck shell=bash
# r. HEVC ladder: per rung, the video bytes and SSIM of the HEVC twins (`--codecs h264,hevc`) against the H.264 rungs
# of the same fMP4 title, and the wall time of that transcode against the H.264-only one, on the clips of
# ../shared/media/natural/ and a synthetic one under temporal noise.

section_r() {
  local clips=() clip name run rung size dest
  local natural=$ROOT/../shared/media/natural
  mkdir -p "$WORK/r"
  if ((Q_NATURAL)) && [[ -d $natural ]]; then clips+=("$natural"/*.mp4 "$natural"/*.ts); fi
  ffmpeg -v error -y -f lavfi -i "testsrc2=size=$Q_SIZE:rate=$FPS:duration=$Q_SECONDS,noise=alls=20:allf=t" \
    -c:v libx264 -preset ultrafast -qp 0 -pix_fmt yuv420p "$WORK/r/noise.mp4" || fail "could not make the noise clip"
  clips+=("$WORK/r/noise.mp4")
  record meta.r.clips "$(for clip in "${clips[@]}"; do basename "${clip%.*}"; done | tr '\n' ' ')"
  record_raw "r. vod, H.264 only" "$(quote_cmd "$VOD" transcode CLIP --output OUT --segment-format fmp4 "${VOD_LADDER_ARGS[@]}")"
  record_raw "r. vod, with the HEVC ladder" \
    "$(quote_cmd "$VOD" transcode CLIP --output OUT --segment-format fmp4 --codecs h264,hevc "${VOD_LADDER_ARGS[@]}")"
  for ((run = 1; run <= RUNS; run++)); do
    log "  run $run of $RUNS"
    for clip in "${clips[@]}"; do
      name=$(basename "${clip%.*}")
      timed "r.h264.$name" "$WORK/r/$name-h264.out" \
        "$VOD" transcode "$clip" --output "$WORK/r/h264" --segment-format fmp4 "${VOD_LADDER_ARGS[@]}"
      rm -rf "$WORK/r/h264"
      dest=$WORK/r/both
      timed "r.both.$name" "$WORK/r/$name-both.out" \
        "$VOD" transcode "$clip" --output "$dest" --segment-format fmp4 --codecs h264,hevc "${VOD_LADDER_ARGS[@]}"
      while read -r rung size; do
        ((run > 1)) || record "meta.r.rungs.$name" "$(awk '$2 ~ /^[0-9]+x[0-9]+$/ && $1 !~ /-hevc$/ { printf "%s ", $1 }' "$WORK/r/$name-both.out")"
        q_measure r.h264 "$name" "$rung" "$dest/$name/$rung/index.m3u8" "$clip" "$size"
        q_measure r.hevc "$name" "$rung" "$dest/$name/$rung-hevc/index.m3u8" "$clip" "$size"
      done < <(awk '$2 ~ /^[0-9]+x[0-9]+$/ && $1 !~ /-hevc$/ { print $1, $2 }' "$WORK/r/$name-both.out")
      rm -rf "$dest"
    done
  done
}
