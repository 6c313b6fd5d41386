// Write protection as the console sees it: the server says in a <meta> what writes need; an API key is asked for
// once, kept in this tab's session storage and sent as X-API-Key. The server never puts a key in a page.

import { errorMessage, RequestError, send } from './http.js';

const STORAGE_KEY = 'vod-api-key';

/** What writes need on this server: `open`, or `key` and/or `signature`. */
export const writes = document.querySelector('meta[name="vod-writes"]')?.content || 'open';

/** Whether writes need a signature, which the console cannot make: it has no secret. */
export const writesNeedSignature = writes.split(' ').includes('signature');

function storedKey() {
  return sessionStorage.getItem(STORAGE_KEY);
}

/** Shows the "Forget API key" button while a key is kept. */
export function showKeyState() {
  const button = document.getElementById('forget-key');
  button.hidden = storedKey() == null;
}

export function forgetKey() {
  sessionStorage.removeItem(STORAGE_KEY);
  showKeyState();
}

/** Asks for a key in the key dialog; resolves with it, or null when the person cancels. */
function askForKey(reason) {
  const dialog = document.getElementById('key-dialog');
  const form = document.getElementById('key-form');
  const input = document.getElementById('key-input');
  document.getElementById('key-reason').textContent = reason;
  input.value = '';
  return new Promise((resolve) => {
    const finish = (key) => {
      form.removeEventListener('submit', submitted);
      document.getElementById('key-cancel').removeEventListener('click', cancelled);
      dialog.removeEventListener('cancel', cancelled);
      dialog.close();
      resolve(key);
    };
    const submitted = (event) => {
      event.preventDefault();
      finish(input.value.trim() || null);
    };
    const cancelled = (event) => {
      event.preventDefault();
      finish(null);
    };
    form.addEventListener('submit', submitted);
    document.getElementById('key-cancel').addEventListener('click', cancelled);
    dialog.addEventListener('cancel', cancelled);
    dialog.showModal();
    input.focus();
  });
}

/**
 * The headers of a read: the key, when one is kept, so that the server lists private titles too. Reads never ask
 * for a key.
 */
export function readHeaders() {
  const key = storedKey();
  return key == null ? {} : { 'X-API-Key': key };
}

/** The headers that carry the key, asking for one first when writes need it and none is kept. */
async function keyHeaders(reason) {
  if (writes.split(' ').includes('key') && storedKey() == null) await obtainKey(reason);
  return readHeaders();
}

let asking = null;

/** Asks for a key and keeps it; writes that need one at the same time wait for the same answer. */
async function obtainKey(reason) {
  asking ??= askForKey(reason).finally(() => { asking = null; });
  const key = await asking;
  if (key == null) throw new RequestError(401, 'No API key given: nothing was changed');
  sessionStorage.setItem(STORAGE_KEY, key);
  showKeyState();
}

/**
 * Runs `attempt(headers)`, a write, with the key's headers merged in; when the server refuses it (401 or 403),
 * asks for a key and tries again, until it is accepted or the person cancels. Resolves with the response.
 */
export async function withKey(attempt) {
  if (writesNeedSignature) {
    throw new RequestError(401, 'Writes on this server must be signed with its secret, which the console does not have');
  }
  let headers = await keyHeaders('Changes on this server need an API key.');
  for (;;) {
    const response = await attempt(headers);
    if (response.status !== 401 && response.status !== 403) return response;
    sessionStorage.removeItem(STORAGE_KEY);
    await obtainKey(`The server refused the request: ${errorMessage(response)}. Enter a valid API key.`);
    headers = await keyHeaders('');
  }
}

/** A JSON write (PATCH, DELETE, POST without a file): resolves with the response body's JSON, or null. */
export async function writeJSON(method, url, body) {
  const response = await withKey((headers) => send(method, url, {
    headers: body === undefined ? headers : { ...headers, 'Content-Type': 'application/json' },
    body: body === undefined ? null : JSON.stringify(body),
  }));
  if (response.status < 200 || response.status > 299) throw new RequestError(response.status, errorMessage(response));
  return response.text ? response.json() : null;
}
