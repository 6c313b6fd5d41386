// The web console: a library page at `#/` and a player page at `#/media/<id>`, over the public API.

import { forgetKey, showKeyState } from './keys.js';
import { showLibrary } from './library.js';
import { showPlayer } from './player.js';

const main = document.getElementById('main');
const announcer = document.getElementById('announcer');
let stop = null;

/** Says `text` to screen readers, through the polite live region. */
function announce(text) {
  announcer.textContent = '';
  setTimeout(() => { announcer.textContent = text; }, 50);
}

function route(first) {
  // In-page anchors such as the skip link are not pages.
  if (!first && location.hash && !location.hash.startsWith('#/')) return;
  stop?.();
  const media = /^#\/media\/(\d+)$/.exec(location.hash);
  stop = media ? showPlayer(main, Number(media[1]), announce) : showLibrary(main, announce);
  if (!media) document.title = 'Library · vod console';
  if (!first) main.querySelector('h1')?.focus();
}

document.getElementById('forget-key').addEventListener('click', () => {
  forgetKey();
  announce('The API key is forgotten');
});
window.addEventListener('hashchange', () => route(false));
showKeyState();
route(true);
