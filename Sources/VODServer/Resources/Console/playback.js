// Playing a title: the browser's own HLS (Safari, Chromium), else hls.js where the operator set
// --player-script-url; else nothing, and the page says so. Either way the page gets the same menus: quality,
// audio track and subtitles.

const HLS_TYPE = 'application/vnd.apple.mpegurl';
const playerScriptURL = document.querySelector('meta[name="vod-player-script-url"]')?.content || '';
let playerScript = null;

/** Whether the browser plays HLS by itself. */
function hasNativeHLS(video) {
  return video.canPlayType(HLS_TYPE) !== '';
}

/** Loads the operator's player script once; resolves with its `Hls`, or null. */
function loadPlayerScript() {
  playerScript ??= new Promise((resolve) => {
    const script = document.createElement('script');
    script.src = playerScriptURL;
    script.addEventListener('load', () => resolve(window.Hls ?? null));
    script.addEventListener('error', () => resolve(null));
    document.head.append(script);
  });
  return playerScript;
}

/**
 * Starts playing `item` in `video`. Resolves with its menus, `{quality, audio, text, onChange(fn), update(item),
 * destroy()}`,
 * each menu `{options: [{label, selected}], choose(index)}` (`text` has "Off" first); or with null when this
 * browser cannot play HLS and no player script is configured or usable.
 */
export async function play(video, item) {
  if (hasNativeHLS(video)) return nativePlayback(video, item);
  const Hls = playerScriptURL ? await loadPlayerScript() : null;
  return Hls?.isSupported() ? hlsPlayback(Hls, video, item) : null;
}

/**
 * Auto (the master playlist) and each rung's variant playlist, where a variant playlist plays with its sound: not
 * where the master lists audio renditions of their own (several audio tracks, or a title encoded in chunks), which
 * a variant playlist alone does not bring.
 */
async function sourcesOf(item) {
  const auto = [{ label: 'Auto', url: item.stream_url }];
  if (!item.variants?.length) return auto;
  try {
    const master = await (await fetch(item.stream_url)).text();
    if (/^#EXT-X-MEDIA:.*TYPE=AUDIO.*,URI=/m.test(master)) return auto;
  } catch {
    return auto;
  }
  return auto.concat(item.variants.map((variant) => ({
    label: `${variant.name} (${variant.width}×${variant.height})`, url: variant.playlist_url,
  })));
}

function nativePlayback(video, item) {
  let chosen = 0;
  let sources = [];
  const listeners = [];
  const findSources = (next) => sourcesOf(next).then((found) => {
    if (chosen !== 0) return;
    sources = found;
    for (const listener of listeners) listener();
  });
  let variantCount = item.variants?.length ?? 0;
  findSources(item);
  video.src = item.stream_url;
  const audioTracks = () => Array.from(video.audioTracks ?? []);
  const textTracks = () => Array.from(video.textTracks).filter((track) => track.kind === 'subtitles' || track.kind === 'captions');
  const label = (track, index) => [track.label, track.language].filter(Boolean).join(' · ') || `Track ${index + 1}`;
  return {
    get quality() {
      return {
        options: sources.length > 1 ? sources.map((source, index) => ({ label: source.label, selected: index === chosen })) : [],
        choose(index) {
          chosen = index;
          const { currentTime, paused } = video;
          video.src = sources[index].url;
          video.addEventListener('loadedmetadata', () => {
            video.currentTime = currentTime;
            if (!paused) video.play().catch(() => {});
          }, { once: true });
        },
      };
    },
    get audio() {
      return {
        options: audioTracks().map((track, index) => ({ label: label(track, index), selected: track.enabled })),
        choose(index) {
          const tracks = audioTracks();
          tracks[index].enabled = true;
          tracks.forEach((track, other) => { if (other !== index) track.enabled = false; });
        },
      };
    },
    get text() {
      const tracks = textTracks();
      return {
        options: tracks.map((track, index) => ({ label: label(track, index), selected: track.mode === 'showing' })),
        choose(index) {
          tracks.forEach((track, other) => { track.mode = other === index ? 'showing' : 'disabled'; });
        },
      };
    },
    onChange(listener) {
      listeners.push(listener);
      for (const list of [video.audioTracks, video.textTracks].filter(Boolean)) {
        for (const type of ['addtrack', 'removetrack', 'change']) list.addEventListener(type, listener);
      }
    },
    /** Whether the browser says nothing of audio tracks (Chromium without its AudioVideoTracks feature). */
    hidesAudioTracks: video.audioTracks === undefined,
    update(next) {
      if ((next.variants?.length ?? 0) === variantCount) return;
      variantCount = next.variants?.length ?? 0;
      findSources(next);
    },
    destroy() {
      video.removeAttribute('src');
      video.load();
    },
  };
}

function hlsPlayback(Hls, video, item) {
  const hls = new Hls({ enableWorker: false });
  hls.loadSource(item.stream_url);
  hls.attachMedia(video);
  return {
    get quality() {
      const levels = hls.levels ?? [];
      return {
        options: levels.length > 1
          ? [{ label: 'Auto', selected: hls.autoLevelEnabled }].concat(levels.map((level, index) => ({
            label: `${level.height}p (${Math.round(level.bitrate / 1000)} kb/s)`, selected: !hls.autoLevelEnabled && hls.currentLevel === index,
          })))
          : [],
        choose(index) { hls.currentLevel = index - 1; },
      };
    },
    get audio() {
      return {
        options: (hls.audioTracks ?? []).map((track, index) => ({ label: track.name || track.lang || `Track ${index + 1}`, selected: hls.audioTrack === index })),
        choose(index) { hls.audioTrack = index; },
      };
    },
    get text() {
      return {
        options: (hls.subtitleTracks ?? []).map((track, index) => ({ label: track.name || track.lang || `Track ${index + 1}`, selected: hls.subtitleTrack === index })),
        choose(index) {
          hls.subtitleDisplay = index >= 0;
          hls.subtitleTrack = index;
        },
      };
    },
    onChange(listener) {
      const events = Hls.Events ?? {};
      for (const name of ['MANIFEST_PARSED', 'LEVEL_SWITCHED', 'AUDIO_TRACKS_UPDATED', 'AUDIO_TRACK_SWITCHED', 'SUBTITLE_TRACKS_UPDATED', 'SUBTITLE_TRACK_SWITCH']) {
        if (events[name]) hls.on(events[name], listener);
      }
    },
    hidesAudioTracks: false,
    update() {},
    destroy() { hls.destroy(); },
  };
}
