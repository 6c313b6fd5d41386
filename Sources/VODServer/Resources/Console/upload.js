// The upload panel: files picked or dropped, each uploaded at once through tus (resumable) when the server has it,
// else as a multipart form, with a progress bar, its rate and the time left.

import { bytes, percent, RateMeter, timeLeft } from './format.js';
import { errorMessage, RequestError, send } from './http.js';
import { withKey } from './keys.js';
import { TusUpload, tusAvailable } from './tus.js';

const TUS_ENDPOINT = '/api/uploads';
let tus = null;
/** The list of uploads, kept while the person visits other pages, since the uploads go on. */
let list = null;

/** Wires the upload form of the library page. */
export function setUpUploads(root, announce) {
  const form = root.querySelector('#upload-form');
  const input = root.querySelector('#upload-files');
  const zone = root.querySelector('#drop-zone');
  const placeholder = root.querySelector('#uploads');
  if (list) placeholder.replaceWith(list);
  else list = placeholder;
  const take = (files) => {
    const title = form.elements.title.value.trim();
    const description = form.elements.description.value.trim();
    const visibility = form.elements.visibility.value;
    for (const file of files) {
      const named = title && files.length > 1 ? `${title} – ${file.name}` : title || file.name.replace(/\.[^.]+$/, '');
      upload(file, { title: named, description, visibility }, announce);
    }
    form.reset();
  };
  input.addEventListener('change', () => take(Array.from(input.files)));
  zone.addEventListener('dragover', (event) => {
    event.preventDefault();
    zone.classList.add('dragging');
  });
  zone.addEventListener('dragleave', () => zone.classList.remove('dragging'));
  zone.addEventListener('drop', (event) => {
    event.preventDefault();
    zone.classList.remove('dragging');
    take(Array.from(event.dataTransfer.files));
  });
}

async function upload(file, fields, announce) {
  const row = document.getElementById('upload-template').content.firstElementChild.cloneNode(true);
  const bar = row.querySelector('.upload-progress');
  const state = row.querySelector('.upload-state');
  const numbers = row.querySelector('.upload-numbers');
  const cancel = row.querySelector('.upload-cancel');
  row.querySelector('.upload-name').textContent = file.name;
  bar.setAttribute('aria-label', `Upload of ${file.name}`);
  state.textContent = 'Starting…';
  list.prepend(row);

  const meter = new RateMeter();
  let interrupted = false;
  const progress = (loaded) => {
    if (interrupted) {
      interrupted = false;
      state.textContent = 'Uploading…';
    }
    meter.add(loaded);
    const fraction = file.size > 0 ? loaded / file.size : 1;
    bar.value = fraction;
    const rate = meter.rate;
    numbers.textContent = [
      `${percent(fraction)} of ${bytes(file.size)}`,
      Number.isFinite(rate) && rate > 0 ? `${bytes(rate)}/s` : '',
      Number.isFinite(rate) && rate > 0 && loaded < file.size ? timeLeft((file.size - loaded) / rate) : '',
    ].filter(Boolean).join(' · ');
  };
  const controller = new AbortController();
  tus ??= tusAvailable(TUS_ENDPOINT);
  const resumable = (await tus)
    ? new TusUpload(file, {
      endpoint: TUS_ENDPOINT,
      metadata: { filename: file.name, ...fields },
      onProgress: progress,
      onResume: (offset) => { state.textContent = `Resumed at ${percent(offset / file.size)}`; },
      onRetry: (seconds) => {
        interrupted = true;
        state.textContent = `Interrupted: trying again in ${seconds} s`;
      },
      signal: controller.signal,
    })
    : null;
  cancel.addEventListener('click', () => {
    controller.abort();
    resumable?.cancel();
  });
  try {
    state.textContent = 'Uploading…';
    const id = await (resumable ? resumable.start() : multipart(file, fields, progress, controller.signal));
    bar.value = 1;
    state.textContent = 'Uploaded';
    const open = row.querySelector('.upload-open');
    open.href = `#/media/${id}`;
    open.textContent = `Open ${fields.title}`;
    open.hidden = false;
    cancel.hidden = true;
    announce(`${file.name} uploaded`);
  } catch (error) {
    row.classList.add('failed');
    state.textContent = controller.signal.aborted ? 'Cancelled' : 'Failed';
    numbers.textContent = controller.signal.aborted ? '' : error.message;
    cancel.hidden = true;
    announce(`${file.name}: ${state.textContent.toLowerCase()}`);
  }
}

/** `POST /api/media` as a multipart form; resolves with the new media id. */
async function multipart(file, fields, progress, signal) {
  const response = await withKey((headers) => {
    const form = new FormData();
    form.append('title', fields.title);
    form.append('description', fields.description);
    form.append('visibility', fields.visibility);
    form.append('file', file);
    return send('POST', '/api/media', { headers, body: form, onUploadProgress: progress, signal });
  });
  if (response.status !== 201) throw new RequestError(response.status, errorMessage(response));
  return response.json().id;
}
