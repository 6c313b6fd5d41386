// Private titles: the page mints a playback token (a write, so it goes with the API key) and puts it on every URL
// it plays or shows: the stream, each rung's playlist and the poster. The server puts it on every URI of the
// playlists it serves with it.

import { writeJSON } from './keys.js';

/** A playback token for title `id`, `{token, expires_at, stream_url}`, or null for a public title. */
export function grantFor(item) {
  return item.visibility === 'private' ? writeJSON('POST', `/api/media/${item.id}/playback-token`, {}) : Promise.resolve(null);
}

/** `item` with `grant`'s token on its stream, rung and poster URLs; `item` itself without a grant. */
export function withGrant(item, grant) {
  if (!grant) return item;
  const signed = (url) => url && `${url}${url.includes('?') ? '&' : '?'}token=${encodeURIComponent(grant.token)}`;
  return {
    ...item,
    stream_url: grant.stream_url,
    poster_url: signed(item.poster_url),
    variants: item.variants?.map((variant) => ({ ...variant, playlist_url: signed(variant.playlist_url) })),
  };
}
