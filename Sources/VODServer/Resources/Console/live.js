// Status events: one Server-Sent Events stream (`GET /api/events`) shared by the pages, which the browser
// reconnects by itself with Last-Event-ID. Where the stream cannot be had, the pages are asked to poll instead.

const TYPES = [
  'media.created', 'media.processing', 'media.progress', 'media.playable', 'media.ready', 'media.failed', 'media.deleted',
  'media.updated',
];
const POLL_SECONDS = 3;
const listeners = new Set();
let source = null;
let pollTimer = null;

function emit(message) {
  for (const listener of listeners) listener(message);
}

function connect() {
  if (source || pollTimer || typeof EventSource !== 'function') return startPolling();
  source = new EventSource('/api/events');
  source.addEventListener('open', () => emit({ type: 'open' }));
  source.addEventListener('error', () => {
    if (source.readyState !== EventSource.CLOSED) return emit({ type: 'reconnecting' });
    source = null;
    startPolling();
  });
  for (const type of TYPES) source.addEventListener(type, (event) => emit(JSON.parse(event.data)));
}

function startPolling() {
  if (pollTimer) return;
  emit({ type: 'poll' });
  pollTimer = setInterval(() => emit({ type: 'poll' }), POLL_SECONDS * 1000);
}

/**
 * Calls `listener` with each event (`{id, type, created_at, media_id, data}`, `data` the media JSON), with
 * `{type: 'open'}` each time the stream (re)connects and `{type: 'poll'}` when the page should read again, and
 * `{type: 'reconnecting'}` while the stream is down. Returns the function that stops it.
 */
export function subscribe(listener) {
  listeners.add(listener);
  connect();
  if (source?.readyState === EventSource.OPEN) listener({ type: 'open' });
  if (pollTimer) listener({ type: 'poll' });
  return () => listeners.delete(listener);
}

/** The item an event is about, or null when it was deleted. */
export function itemOf(event) {
  return event.type === 'media.deleted' ? null : event.data;
}
