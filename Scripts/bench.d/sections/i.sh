# shellcheck shell=bash
# i. alternate audio: a 1080p30 clip with four AAC tracks into the ladder plus four audio-only renditions, vod
# transcode vs one ffmpeg CLI process (-var_stream_map, agroup), and the cost of the three extra renditions against
# the same clip with its first track only.

# The audio tracks of section i's source, in order: the language as Matroska stores it (ISO 639-2/B), the one
# a player gets in the master (RFC 5646), and the tones of the left and right channels (Hz).
AUDIO_TRACKS=(eng:en:440:660 fre:fr:330:495 ger:de:550:825 spa:es:220:330)

# multi_audio_clip WIDTHxHEIGHT SECONDS: the moving pattern of source_clip (H.264 High CRF 20, tagged BT.709
# limited range) with the four AAC 192 kb/s 48 kHz stereo tracks of AUDIO_TRACKS, each its own pair of tones,
# tagged with its language, the first the default, in Matroska: a film with its dubs.
multi_audio_clip() {
  local size=$1 seconds=$2 path i lang tone_l tone_r inputs=() maps=(-map 0:v) tags=() expected=""
  path=$CACHE/src-4audio-v1-${size}p${FPS}-${seconds}s.mkv
  for i in "${!AUDIO_TRACKS[@]}"; do
    IFS=: read -r lang _ tone_l tone_r <<<"${AUDIO_TRACKS[$i]}"
    inputs+=(-f lavfi -i "aevalsrc=0.3*sin(2*PI*$tone_l*t)|0.3*sin(2*PI*$tone_r*t):s=48000:d=$seconds")
    maps+=(-map "$((i + 1)):a")
    tags+=("-metadata:s:a:$i" "language=$lang" "-disposition:a:$i" "$( ((i == 0)) && echo default || echo 0)")
    expected+="aac,$( ((i == 0)) && echo 1 || echo 0),$lang "
  done
  cached_clip "$path" \
    -f lavfi -i "testsrc2=size=$size:rate=$FPS:duration=$seconds,noise=alls=5:allf=t" "${inputs[@]}" "${maps[@]}" \
    -c:v libx264 -preset veryfast -crf 20 -pix_fmt yuv420p -g "$GOP" -disposition:v:0 default \
    -color_primaries bt709 -color_trc bt709 -colorspace bt709 -color_range tv \
    -c:a aac -b:a 192k "${tags[@]}" -shortest
  check_probe "$path" color_primaries=bt709 color_transfer=bt709 color_space=bt709 color_range=tv
  check_audio_tracks "$path" "$expected"
  printf '%s' "$path"
}

# first_track_clip CLIP: prints the path of a cached copy of CLIP with its video and its first audio track
# only (stream copy, so the same picture and sound), making it the first time.
first_track_clip() {
  local src=$1 path
  path=${src%.*}-track0.${src##*.}
  cached_clip "$path" -i "$src" -map 0:v -map 0:a:0 -c copy
  check_audio_tracks "$path" "$(ffprobe -v error -select_streams a:0 -show_entries \
    stream=codec_name:stream_tags=language:stream_disposition=default -of csv=p=0 "$src") "
  printf '%s' "$path"
}

# streams_of PLAYLIST: the streams of a media playlist's segments, one "codec,type[,rate,channels]" each.
streams_of() {
  ffprobe -v error -show_entries stream=codec_name,codec_type,sample_rate,channels -of csv=p=0 "$1" |
    sed '/^$/d' | sort -u | tr '\n' ' ' | sed 's/ $//'
}

# check_layout SECTION TOOL FOLDER AUDIO: FOLDER holds master.m3u8 and the rungs of RUNGS; with AUDIO > 1, the
# rungs are video-only and audio_0 ... audio_(AUDIO-1) each one AAC 48 kHz stereo stream, listed in the
# master as TYPE=AUDIO renditions; with AUDIO = 1, the rungs carry the audio and there is no audio_* folder.
# Records meta.SECTION.layout_TOOL_AUDIO for the report.
check_layout() {
  local section=$1 tool=$2 out=$3 audio=$4 entry name found j media
  [[ -f $out/master.m3u8 ]] || fail "$tool: no master.m3u8 in $out"
  for entry in "${RUNGS[@]}"; do
    IFS=: read -r name _ <<<"$entry"
    found=$(streams_of "$out/$name/index.m3u8")
    if ((audio > 1)); then
      [[ $found == h264,video ]] || fail "$tool: rung $name holds '$found', not video only"
    else
      [[ $found == "aac,audio,48000,2 h264,video" ]] || fail "$tool: rung $name holds '$found', not video and AAC stereo"
    fi
  done
  media=$(grep -c '^#EXT-X-MEDIA:TYPE=AUDIO' "$out/master.m3u8" || true)
  if ((audio > 1)); then
    ((media == audio)) || fail "$tool: the master lists $media audio renditions, not $audio"
    for ((j = 0; j < audio; j++)); do
      found=$(streams_of "$out/audio_$j/index.m3u8")
      [[ $found == "aac,audio,48000,2" ]] || fail "$tool: audio_$j holds '$found', not one AAC 48 kHz stereo stream"
    done
    record "meta.$section.layout_${tool}_$audio" "$(grep '^#EXT-X-MEDIA:TYPE=AUDIO' "$out/master.m3u8" |
      sed -E 's/.*(LANGUAGE="[^"]*").*(DEFAULT=[A-Z]*).*/\1 \2/; s/.*(DEFAULT=[A-Z]*).*(LANGUAGE="[^"]*").*/\2 \1/' |
      paste -sd ';' | sed 's/;/; /g')"
  else
    ((media == 0)) || fail "$tool: the master lists $media audio renditions for a one-track source"
    [[ -z $(find "$out" -maxdepth 1 -name 'audio_*') ]] || fail "$tool: audio_* folders for a one-track source"
  fi
}

section_i() {
  local src one run entry lang langs=() dir=$WORK/i bitrate
  src=$(multi_audio_clip "$I_SIZE" "$I_SECONDS")
  one=$(first_track_clip "$src")
  for entry in "${AUDIO_TRACKS[@]}"; do
    IFS=: read -r _ lang _ <<<"$entry"
    langs+=("$lang")
  done
  bitrate=$(ffprobe -v error -show_entries format=bit_rate -of csv=p=0 "$src" | awk '{ printf "%.0f", $1 / 1e6 }')
  record meta.i.source "synthetic ${I_SIZE#*x}p${FPS} ${I_SECONDS} s (the test pattern of a, H.264 High CRF 20 at $bitrate Mb/s tagged bt709 limited range, with ${#AUDIO_TRACKS[@]} AAC 192 kb/s 48 kHz stereo tracks of different tones, languages $(printf '%s\n' "${AUDIO_TRACKS[@]}" | cut -d: -f1 | paste -sd /), the first the default; Matroska), \`$(basename "$src")\`; the one-track clip \`$(basename "$one")\` is its video and first track, stream-copied"
  record_raw "i. the one-track clip (made once)" "$(quote_cmd ffmpeg -i "$src" -map 0:v -map 0:a:0 -c copy "$one")"
  record meta.i.tracks "${#AUDIO_TRACKS[@]}"
  plan_rungs i "$I_SIZE"
  local vod4=("$VOD" transcode "$src" --output "$dir/vod4" --rate-control fixed "${VOD_LADDER_ARGS[@]}")
  local vod1=("$VOD" transcode "$one" --output "$dir/vod1" --rate-control fixed "${VOD_LADDER_ARGS[@]}")
  for ((run = 1; run <= RUNS; run++)); do
    log "  run $run of $RUNS"
    rm -rf "$dir"
    mkdir -p "$dir/vod4" "$dir/ffmpeg4" "$dir/vod1" "$dir/ffmpeg1"
    # Four tracks: vod makes four audio-only renditions; the CLI the same through -var_stream_map.
    record_cmd "i. vod, four audio tracks" /usr/bin/time -f '%e %U %S %M' "${vod4[@]}"
    timed i.vod "$dir/vod4.log" "${vod4[@]}"
    ALT_AUDIO_LANGS=("${langs[@]}")
    ffmpeg_ladder_cmd "$src" "$dir/ffmpeg4"
    record_cmd "i. ffmpeg CLI, four audio tracks" /usr/bin/time -f '%e %U %S %M' "${FFMPEG_CMD[@]}"
    timed i.ffmpeg "$dir/ffmpeg4.log" "${FFMPEG_CMD[@]}"
    # The first track only, as in section a: vod and the CLI carry it in every rung.
    ALT_AUDIO_LANGS=()
    record_cmd "i. vod, first track only" /usr/bin/time -f '%e %U %S %M' "${vod1[@]}"
    timed i.vod1 "$dir/vod1.log" "${vod1[@]}"
    ffmpeg_ladder_cmd "$one" "$dir/ffmpeg1"
    record_cmd "i. ffmpeg CLI, first track only" /usr/bin/time -f '%e %U %S %M' "${FFMPEG_CMD[@]}"
    timed i.ffmpeg1 "$dir/ffmpeg1.log" "${FFMPEG_CMD[@]}"
  done
  check_layout i vod "$dir/vod4/$(basename "${src%.*}")" "${#AUDIO_TRACKS[@]}"
  check_layout i ffmpeg "$dir/ffmpeg4" "${#AUDIO_TRACKS[@]}"
  check_layout i vod "$dir/vod1/$(basename "${one%.*}")" 1
  check_layout i ffmpeg "$dir/ffmpeg1" 1
  log "  outputs checked: ${#RUNGS[@]} video-only rungs and ${#AUDIO_TRACKS[@]} audio renditions from both with four tracks, audio in every rung with one"
}
