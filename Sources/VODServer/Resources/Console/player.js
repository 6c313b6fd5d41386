// The player page of one title: playback with quality, audio and subtitle menus, copy buttons for the stream URL
// and an embed snippet, and editing or deleting the title.

import { confirmAction } from './confirm.js';
import { getJSON } from './http.js';
import { readHeaders, writeJSON } from './keys.js';
import { itemOf, subscribe } from './live.js';
import { fillSummary } from './media.js';
import { play } from './playback.js';
import { grantFor, withGrant } from './tokens.js';

/** How often a private title being transcoded is read again: its status events need a key, which SSE cannot send. */
const PRIVATE_POLL_SECONDS = 3;

/** Shows title `id` in `main`; returns the function that stops its playback and updates. */
export function showPlayer(main, id, announce) {
  main.replaceChildren(document.getElementById('player-template').content.cloneNode(true));
  const video = main.querySelector('#video');
  const heading = main.querySelector('#player-heading');
  let item = null;
  let playback = null;
  /** The playback token of a private title, minted when its playback starts. */
  let grant = null;
  let stopped = false;
  /** Whether playback began while the title was still growing, and whether it then failed: Chromium's own HLS
   * refuses the growing title's EVENT playlists, and plays the title once it is ready. */
  let startedWhileGrowing = false;
  let failedWhileGrowing = false;

  // Work still under way when another page replaced this one (a save, a retry, a playback starting or failing)
  // changes nothing: `main` holds the other page now.
  const show = (next) => {
    if (stopped) return;
    item = next;
    heading.textContent = item.title;
    main.querySelector('#player-description').textContent = item.description ?? '';
    document.title = `${item.title} · vod console`;
    fillSummary(main, item);
    video.setAttribute('aria-label', item.title);
    share(withGrant(item, grant));
    if (item.playable && (!playback || (failedWhileGrowing && item.status === 'ready'))) {
      startPlayback();
    } else if (!item.playable) {
      note(item.status === 'failed' ? null : 'The title cannot be played yet: it plays as soon as its first segments are out.');
    } else if (playback?.ready) {
      playback.ready.update(withGrant(item, grant));
      fillMenus(main, playback.ready);
    }
  };

  const note = (text, url) => {
    if (stopped) return;
    const element = main.querySelector('#player-note');
    element.hidden = !text;
    element.textContent = text ?? '';
    if (url) {
      const link = document.createElement('a');
      link.href = url;
      link.textContent = url;
      element.append(' ', link);
    }
  };

  /** Shows the poster, stream URL and embed snippet of `target`: a private title's only once it has a token. */
  const share = (target) => {
    if (target.visibility === 'private' && !grant) return;
    if (target.poster_url) video.poster = target.poster_url;
    main.querySelector('#stream-url').value = target.stream_url;
    main.querySelector('#embed-code').value = embedSnippet(target);
  };

  /** Leaves only the heading and `message` when there is no title to show. */
  const gone = (message) => {
    playback?.ready?.destroy();
    for (const element of main.querySelectorAll('.stage, .track-menus, section, .meta, .rungs, .transcode, .retry, .error')) {
      element.hidden = true;
    }
    note(message);
  };

  const startPlayback = () => {
    playback?.ready?.destroy();
    startedWhileGrowing = item.status !== 'ready';
    failedWhileGrowing = false;
    note(null);
    const current = {
      pending: grantFor(item).then((minted) => {
        grant = minted;
        const target = withGrant(item, grant);
        share(target);
        return play(video, target);
      }),
    };
    playback = current;
    current.pending.then((menus) => {
      if (stopped) return menus?.destroy();
      current.ready = menus;
      if (!menus) return note('This browser cannot play HLS by itself. Open the stream in Safari, VLC or ffplay:', withGrant(item, grant).stream_url);
      fillMenus(main, menus);
      menus.onChange(() => { if (!stopped) fillMenus(main, menus); });
      const audio = (item.tracks ?? []).filter((track) => track.type === 'audio' && track.status === 'rendition');
      if (menus.hidesAudioTracks && audio.length > 1) {
        note(`This browser plays the default audio track and offers no choice of the ${audio.length} the title has.`);
      }
    }, (error) => note(`The title cannot be played: ${error.message}`));
  };

  video.addEventListener('error', () => {
    if (stopped || !item || !video.error) return;
    if (!startedWhileGrowing) {
      note(`The stream could not be played (${video.error.message || `media error ${video.error.code}`}).`);
    } else if (item.status === 'ready') {
      startPlayback();
    } else {
      failedWhileGrowing = true;
      note('This browser cannot play the title while it is still being transcoded: it starts again when the title is ready.');
    }
  });
  main.querySelector('#edit-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    try {
      show(await writeJSON('PATCH', `/api/media/${id}`, {
        title: form.elements.title.value, description: form.elements.description.value, visibility: form.elements.visibility.value,
      }));
      announce('Saved');
    } catch (error) {
      announce(`Not saved: ${error.message}`);
    }
  });
  main.querySelector('#delete-button').addEventListener('click', async () => {
    if (!(await confirmAction(`Delete “${item.title}” and its renditions? This cannot be undone.`, 'Delete'))) return;
    try {
      await writeJSON('DELETE', `/api/media/${id}`);
      announce(`${item.title} deleted`);
      location.hash = '#/';
    } catch (error) {
      announce(`Not deleted: ${error.message}`);
    }
  });
  main.querySelector('.retry').addEventListener('click', async () => {
    try {
      show(await writeJSON('POST', `/api/media/${id}/retry`));
      announce(`${item.title} is queued again`);
    } catch (error) {
      announce(`Retry failed: ${error.message}`);
    }
  });
  for (const button of main.querySelectorAll('[data-copy]')) {
    button.addEventListener('click', () => copy(main.querySelector(`#${button.dataset.copy}`), announce));
  }
  for (const [selector, menu] of [['#quality', 'quality'], ['#audio-track', 'audio'], ['#text-track', 'text']]) {
    main.querySelector(selector).addEventListener('change', (event) => {
      playback?.ready?.[menu].choose(Number(event.target.value));
    });
  }

  getJSON(`/api/media/${id}`, readHeaders()).then((first) => {
    if (stopped) return;
    show(first);
    main.querySelector('#edit-title').value = first.title;
    main.querySelector('#edit-description').value = first.description ?? '';
    main.querySelector('#edit-visibility').value = first.visibility ?? 'public';
  }).catch((error) => {
    heading.textContent = error.status === 404 ? 'Not found' : 'The title could not be read';
    gone(error.message);
  });
  const unsubscribe = subscribe((event) => {
    if (event.media_id !== id || !item) return;
    const next = itemOf(event);
    if (next == null) return gone('This title has been deleted.');
    if (next.updated_at >= item.updated_at) show(next);
  });

  const poller = setInterval(() => {
    if (item?.visibility !== 'private' || item.status === 'ready' || item.status === 'failed') return;
    getJSON(`/api/media/${id}`, readHeaders()).then((next) => {
      if (next.updated_at >= item.updated_at) show(next);
    }, () => {}); // The next read tries again; a deleted title is told by the status events.
  }, PRIVATE_POLL_SECONDS * 1000);

  return () => {
    stopped = true;
    clearInterval(poller);
    unsubscribe();
    playback?.ready?.destroy();
  };
}

/** Fills the three menus from the playback's current state; a menu with fewer than two choices stays hidden. */
function fillMenus(main, menus) {
  const fill = (selector, fieldSelector, menu, withOff) => {
    const select = main.querySelector(selector);
    const options = menu.options.map((option, index) => ({ ...option, value: index }));
    if (withOff && options.length) options.unshift({ label: 'Off', value: -1, selected: !options.some((option) => option.selected) });
    main.querySelector(fieldSelector).hidden = options.length < 2;
    select.replaceChildren(...options.map((option) => new Option(option.label, option.value, false, option.selected)));
  };
  fill('#quality', '#quality-field', menus.quality, false);
  fill('#audio-track', '#audio-field', menus.audio, false);
  fill('#text-track', '#text-field', menus.text, true);
}

function embedSnippet(item) {
  const attribute = (value) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  const poster = item.poster_url ? ` poster="${attribute(item.poster_url)}"` : '';
  return `<video src="${attribute(item.stream_url)}"${poster} controls playsinline></video>`;
}

async function copy(field, announce) {
  try {
    await navigator.clipboard.writeText(field.value);
  } catch {
    field.select();
    document.execCommand('copy');
  }
  announce('Copied');
}
