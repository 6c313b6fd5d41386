// The library page: the upload panel and every title, newest first, kept live by the status events, with
// filters by status and a search by title.

import { getJSON } from './http.js';
import { readHeaders, writeJSON, writesNeedSignature } from './keys.js';
import { itemOf, subscribe } from './live.js';
import { fillSummary, newestFirst } from './media.js';
import { setUpUploads } from './upload.js';

/** Shows the library in `main`; returns the function that stops its updates. */
export function showLibrary(main, announce) {
  main.replaceChildren(document.getElementById('library-template').content.cloneNode(true));
  setUpUploads(main, announce);
  if (writesNeedSignature) {
    const notice = main.querySelector('#writes-notice');
    notice.textContent = 'Writes on this server must be signed with its secret, which the console does not have: it can only read here.';
    notice.hidden = false;
  }
  const items = new Map();
  const cards = new Map();
  const list = main.querySelector('#library-list');
  const statusFilter = main.querySelector('#filter-status');
  const search = main.querySelector('#filter-search');
  const liveState = main.querySelector('#live-state');
  const empty = main.querySelector('#library-empty');
  // A refresh still reading when another page replaced this one renders nothing.
  let stopped = false;

  const render = () => {
    if (stopped) return;
    const wanted = statusFilter.value;
    const words = search.value.trim().toLocaleLowerCase();
    const shown = [...items.values()].sort(newestFirst)
      .filter((item) => (!wanted || item.status === wanted) && (!words || item.title.toLocaleLowerCase().includes(words)));
    for (const [id, card] of cards) {
      if (!items.has(id)) {
        card.remove();
        cards.delete(id);
      }
    }
    const elements = shown.map((item) => {
      let card = cards.get(item.id);
      if (!card) {
        card = newCard(item.id, items, announce, render);
        cards.set(item.id, card);
      }
      fillCard(card, item);
      return card;
    });
    const focused = document.activeElement;
    list.replaceChildren(...elements);
    if (focused && list.contains(focused)) focused.focus();
    empty.hidden = elements.length > 0;
    empty.textContent = items.size ? 'No title matches.' : 'No titles yet.';
  };

  let buffered = null;
  const refresh = async () => {
    buffered = [];
    try {
      const all = await getJSON('/api/media', readHeaders());
      items.clear();
      for (const item of all) items.set(item.id, item);
      for (const event of buffered) apply(event);
    } catch (error) {
      if (!stopped) announce(`The library could not be read: ${error.message}`);
    }
    buffered = null;
    render();
  };
  const apply = (event) => {
    const item = itemOf(event);
    if (item == null) return items.delete(event.media_id);
    const known = items.get(item.id);
    if (!known || known.updated_at <= item.updated_at) items.set(item.id, item);
  };

  statusFilter.addEventListener('change', render);
  search.addEventListener('input', render);
  const unsubscribe = subscribe((event) => {
    if (event.type === 'open' || event.type === 'poll') {
      liveState.textContent = event.type === 'open' ? 'Live' : 'Updating every few seconds';
      refresh();
    } else if (event.type === 'reconnecting') {
      liveState.textContent = 'Reconnecting…';
    } else {
      buffered?.push(event);
      apply(event);
      render();
    }
  });
  return () => {
    stopped = true;
    unsubscribe();
  };
}

function newCard(id, items, announce, render) {
  const card = document.getElementById('card-template').content.firstElementChild.cloneNode(true);
  card.querySelector('.retry').addEventListener('click', async () => {
    try {
      const item = await writeJSON('POST', `/api/media/${id}/retry`);
      items.set(item.id, item);
      announce(`${item.title} is queued again`);
      render();
    } catch (error) {
      announce(`Retry failed: ${error.message}`);
    }
  });
  return card;
}

function fillCard(card, item) {
  card.dataset.id = item.id;
  card.dataset.status = item.status;
  const link = card.querySelector('.card-title a');
  link.href = `#/media/${item.id}`;
  link.textContent = item.title;
  // A private title's poster needs a playback token, which the library does not mint for every card.
  const posterURL = item.visibility === 'private' ? null : item.poster_url;
  const poster = card.querySelector('.poster img');
  if (posterURL && poster.getAttribute('src') !== posterURL) poster.src = posterURL;
  poster.hidden = !posterURL;
  fillSummary(card, item);
  card.querySelector('.retry').setAttribute('aria-label', `Retry ${item.title}`);
}
