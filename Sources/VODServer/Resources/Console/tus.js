// A small tus 1.0.0 client (creation, HEAD to resume, PATCH in chunks). The upload's URL is kept in localStorage,
// keyed by the file's name, size and modification time, so an upload cut by a network drop, or by closing the
// page and picking the same file again, goes on where the server says it stands.

import { errorMessage, RequestError, send } from './http.js';
import { withKey } from './keys.js';

const VERSION = '1.0.0';
const CHUNK_SIZE = 8 * 1024 * 1024;
const RETRY_DELAYS = [1, 2, 4, 8, 15, 30, 30, 30];

/** Whether `endpoint` speaks tus 1.0.0. */
export async function tusAvailable(endpoint) {
  try {
    const response = await send('OPTIONS', endpoint);
    return response.status < 300 && (response.header('Tus-Version') || '').split(',').map((v) => v.trim()).includes(VERSION);
  } catch {
    return false;
  }
}

function base64(text) {
  return btoa(Array.from(new TextEncoder().encode(text), (byte) => String.fromCharCode(byte)).join(''));
}

function wait(seconds, signal) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, seconds * 1000);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new RequestError(0, 'Cancelled'));
    }, { once: true });
  });
}

export class TusUpload {
  /**
   * @param {File} file
   * @param {{endpoint: string, metadata: Object<string, string>, onProgress: function(number),
   *   onResume: function(number), onRetry: function(number), signal: AbortSignal}} options
   */
  constructor(file, { endpoint, metadata, onProgress, onResume, onRetry, signal }) {
    this.file = file;
    this.endpoint = endpoint;
    this.metadata = metadata;
    this.onProgress = onProgress;
    this.onResume = onResume;
    this.onRetry = onRetry;
    this.signal = signal;
    this.storageKey = `vod-tus:${file.name}:${file.size}:${file.lastModified}`;
  }

  /** Uploads the rest of the file; resolves with the new media id. */
  async start() {
    let { url, offset, mediaId } = await this.resume();
    if (url == null) {
      url = await this.create();
      offset = 0;
    }
    let failures = 0;
    while (mediaId == null) {
      try {
        ({ offset, mediaId } = await this.patch(url, offset));
        failures = 0;
      } catch (error) {
        if (!error.retryable || this.signal?.aborted || failures >= RETRY_DELAYS.length) throw error;
        this.onRetry(RETRY_DELAYS[failures]);
        await wait(RETRY_DELAYS[failures], this.signal);
        failures += 1;
        ({ offset, mediaId } = await this.offset(url).catch(() => ({ offset, mediaId })));
      }
    }
    localStorage.removeItem(this.storageKey);
    this.onProgress(this.file.size);
    return Number(mediaId);
  }

  /** Drops the upload on the server and forgets it. */
  async cancel() {
    const url = localStorage.getItem(this.storageKey);
    localStorage.removeItem(this.storageKey);
    if (url) await withKey((headers) => send('DELETE', url, { headers: { ...headers, 'Tus-Resumable': VERSION } })).catch(() => {});
  }

  /** Where a kept upload stands, or no URL when there is none the server still has. */
  async resume() {
    const url = localStorage.getItem(this.storageKey);
    if (url == null) return { url: null };
    const state = await this.offset(url).catch(() => null);
    if (state == null) {
      localStorage.removeItem(this.storageKey);
      return { url: null };
    }
    this.onProgress(state.offset);
    this.onResume(state.offset);
    return { url, ...state };
  }

  async offset(url) {
    const response = await send('HEAD', url, { headers: { 'Tus-Resumable': VERSION }, signal: this.signal });
    if (response.status !== 200) throw new RequestError(response.status, `The upload is gone (${response.status})`);
    return { offset: Number(response.header('Upload-Offset')), mediaId: response.header('Media-Id') };
  }

  async create() {
    const metadata = Object.entries(this.metadata).filter(([, value]) => value)
      .map(([key, value]) => `${key} ${base64(value)}`).join(',');
    const response = await withKey((headers) => send('POST', this.endpoint, {
      headers: { ...headers, 'Tus-Resumable': VERSION, 'Upload-Length': String(this.file.size), 'Upload-Metadata': metadata },
      signal: this.signal,
    }));
    if (response.status !== 201) throw new RequestError(response.status, errorMessage(response));
    const url = new URL(response.header('Location'), new URL(this.endpoint, location.href)).href;
    localStorage.setItem(this.storageKey, url);
    return url;
  }

  async patch(url, offset) {
    const chunk = this.file.slice(offset, offset + CHUNK_SIZE);
    const response = await withKey((headers) => send('PATCH', url, {
      headers: {
        ...headers, 'Tus-Resumable': VERSION, 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream',
      },
      body: chunk,
      onUploadProgress: (loaded) => this.onProgress(offset + loaded),
      signal: this.signal,
    }));
    if (response.status === 409) return this.offset(url);
    if (response.status !== 204) {
      if ([404, 410, 413, 422].includes(response.status)) localStorage.removeItem(this.storageKey);
      throw new RequestError(response.status, errorMessage(response));
    }
    return { offset: Number(response.header('Upload-Offset')), mediaId: response.header('Media-Id') };
  }
}
