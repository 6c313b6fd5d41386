# shellcheck shell=bash
# q. rate control: per rung, video bytes and SSIM against the source scaled to the rung, with `--rate-control
# fixed` (the default) and with `--rate-control quality` (constant quality capped at each rung's bitrate, its CRF
# chosen per title), on the
# clips of ../shared/media/natural/ and two synthetic ones (a still test card, noise); wall time, and the share of
# it the analysis took; and issue 25's anchor, the ffmpeg CLI at a plain capped CRF 26, on the same rungs.

section_q() {
  local clips=() clip name mode dest run rung size line i
  local natural=$ROOT/../shared/media/natural
  mkdir -p "$WORK/q"
  if ((Q_NATURAL)) && [[ -d $natural ]]; then clips+=("$natural"/*.mp4 "$natural"/*.ts); fi
  local cards=(slide "smptebars=size=$Q_SIZE:rate=$FPS:duration=$Q_SECONDS"
    noise "testsrc2=size=$Q_SIZE:rate=$FPS:duration=$Q_SECONDS,noise=alls=40:allf=t")
  for ((i = 0; i < ${#cards[@]}; i += 2)); do
    ffmpeg -v error -y -f lavfi -i "${cards[i + 1]}" -c:v libx264 -preset ultrafast -qp 0 -pix_fmt yuv420p \
      "$WORK/q/${cards[i]}.mp4" || fail "could not make the ${cards[i]} clip"
    clips+=("$WORK/q/${cards[i]}.mp4")
  done
  record meta.q.clips "$(for clip in "${clips[@]}"; do basename "${clip%.*}"; done | tr '\n' ' ')"
  record_raw "q. vod, each mode" "$(quote_cmd "$VOD" transcode CLIP --output OUT --rate-control MODE "${VOD_LADDER_ARGS[@]}")"
  for ((run = 1; run <= RUNS; run++)); do
    log "  run $run of $RUNS"
    for clip in "${clips[@]}"; do
      name=$(basename "${clip%.*}")
      for mode in fixed quality; do
        dest=$WORK/q/$run-$mode
        timed "q.$mode.$name" "$WORK/q/$name-$mode.out" \
          "$VOD" transcode "$clip" --output "$dest" --rate-control "$mode" "${VOD_LADDER_ARGS[@]}"
        while read -r rung size; do
          q_measure "q.$mode" "$name" "$rung" "$dest/$name/$rung/index.m3u8" "$clip" "$size"
          ((run > 1)) || record "meta.q.rungs.$name" "$(awk '$2 ~ /^[0-9]+x[0-9]+$/ { printf "%s ", $1 }' "$WORK/q/$name-$mode.out")"
        done < <(awk '$2 ~ /^[0-9]+x[0-9]+$/ { print $1, $2 }' "$WORK/q/$name-$mode.out")
        line=$(grep 'chosen per title' "$WORK/q/$name-$mode.out" || true)
        if [[ -n $line ]]; then
          record "q.quality.crf.$name" "$(sed 's/^crf \([0-9.]*\) .*/\1/' <<<"$line")"
          record "q.quality.analysis.$name" "$(sed 's/.* in \([0-9.]*\) s, .*/\1/' <<<"$line")"
        fi
        [[ -z $line ]] || log "  $name: $line"
        rm -rf "$dest"
      done
      ((run > 1)) || q_cli_anchor "$clip" "$name"
    done
  done
}

# q_measure PREFIX CLIP_NAME RUNG FILE SOURCE SIZE: records PREFIX.bytes.CLIP_NAME.RUNG and PREFIX.ssim.CLIP_NAME.RUNG
# (PREFIX such as q.fixed): the video packets of FILE (a media playlist or a file), and its SSIM against SOURCE
# scaled to SIZE (WIDTHxHEIGHT) with bicubic.
q_measure() {
  local key=$1 name=$2 rung=$3 file=$4 source=$5 size=$6
  record "$key.bytes.$name.$rung" "$(ffprobe -v error -select_streams v:0 -show_entries packet=size -of csv=p=0 \
    "$file" | tr -d , | awk '{ s += $1 } END { print s }')"
  record "$key.ssim.$name.$rung" "$(ffmpeg -hide_banner -nostdin -nostats -i "$file" -i "$source" \
    -lavfi "[0:v]setpts=PTS-STARTPTS[d];[1:v]scale=${size/x/:}:flags=bicubic,format=yuv420p,setpts=PTS-STARTPTS[r];[d][r]ssim" \
    -f null - 2>&1 | sed -n 's/.*All:\([0-9.]*\).*/\1/p' | tail -n 1)"
}

# q_cli_anchor CLIP NAME: issue 25's anchor, the ffmpeg CLI at a plain capped CRF 26 (x264 veryfast, VBV maxrate the
# rung's bitrate, a 2 s buffer, an IDR every 2 s), each rung of vod's ladder for CLIP encoded on its own.
q_cli_anchor() {
  local clip=$1 name=$2 rung size entry kbps out=$WORK/q/cli.ts
  local cmd
  while read -r rung size; do
    kbps=""
    for entry in "${LADDER[@]}"; do [[ ${entry%%:*} == "$rung" ]] && kbps=${entry##*:}; done
    # A source below the smallest rung gets one rung at its own size, at the smallest rung's bitrate scaled by
    # its pixels (vod's LadderPlanner).
    [[ -n $kbps ]] || kbps=$(awk -v s="$size" -v e="${LADDER[0]}" 'BEGIN {
      split(e, r, ":"); split(r[2], rs, "x"); split(s, ss, "x")
      k = int(r[3] * ss[1] * ss[2] / (rs[1] * rs[2])); print (k < 100 ? 100 : k) }')
    cmd=(ffmpeg -v error -nostdin -y -i "$clip" -an -vf "scale=${size/x/:}:flags=bicubic,format=yuv420p" -c:v libx264 -preset veryfast
      -crf 26 -maxrate "${kbps}k" -bufsize "$((2 * kbps))k" -force_key_frames 'expr:gte(t,n_forced*2)' -f mpegts "$out")
    record_cmd "q. ffmpeg CLI, capped CRF 26 (one rung)" "${cmd[@]}"
    "${cmd[@]}" || fail "the ffmpeg CLI could not encode $name at $rung"
    q_measure q.cli "$name" "$rung" "$out" "$clip" "$size"
  done < <(awk '$2 ~ /^[0-9]+x[0-9]+$/ { print $1, $2 }' "$WORK/q/$name-fixed.out")
  rm -f "$out"
}
