// What the pages show of a media item: its status in words, duration, rungs, transcode progress and error.

import { duration, percent } from './format.js';

/**
 * Fills the `.status`, `.visibility`, `.duration`, `.rungs`, `.transcode` and `.error` elements inside `root` for
 * `item`.
 */
export function fillSummary(root, item) {
  const status = root.querySelector('.status');
  status.textContent = item.status === 'processing' && item.playable ? 'processing, playable' : item.status;
  status.className = `status status-${item.status}`;
  root.querySelector('.visibility').textContent = item.visibility === 'private' ? 'private' : '';
  root.querySelector('.duration').textContent = item.duration == null ? '' : `· ${duration(item.duration)}`;
  const rungs = root.querySelector('.rungs');
  rungs.textContent = item.variants?.length ? `Rungs: ${item.variants.map((variant) => variant.name).join(', ')}` : '';
  const bar = root.querySelector('.transcode');
  const working = item.status === 'pending' || item.status === 'processing';
  bar.hidden = !working;
  bar.value = item.progress ?? 0;
  bar.setAttribute('aria-label', `Transcode of ${item.title}`);
  bar.setAttribute('aria-valuetext', percent(item.progress ?? 0));
  bar.textContent = percent(item.progress ?? 0);
  const error = root.querySelector('.error');
  error.hidden = item.status !== 'failed';
  error.textContent = item.status === 'failed' ? `Failed: ${item.error || 'no reason given'}` : '';
  root.querySelector('.retry').hidden = item.status !== 'failed';
}

/** Sorts newest first, as the API lists them. */
export function newestFirst(a, b) {
  return b.created_at.localeCompare(a.created_at) || b.id - a.id;
}
