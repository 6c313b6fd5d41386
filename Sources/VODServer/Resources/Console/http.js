// Requests through XMLHttpRequest, which reports upload progress (fetch does not), and the API's JSON errors.

/**
 * An answer the console could not use: its status (0 when the network failed) and the server's message; it is
 * worth trying again when the network failed, the resource was busy (423) or the server was unavailable (5xx).
 */
export class RequestError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
    this.retryable = status === 0 || status === 423 || status >= 500;
  }
}

/**
 * Sends one request and resolves with `{status, header(name), text, json()}` whatever the status; rejects with a
 * `RequestError` of status 0 when the network fails or `signal` aborts it.
 */
export function send(method, url, { headers = {}, body = null, onUploadProgress, signal } = {}) {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open(method, url);
    for (const [name, value] of Object.entries(headers)) request.setRequestHeader(name, value);
    if (onUploadProgress) request.upload.addEventListener('progress', (event) => onUploadProgress(event.loaded));
    request.addEventListener('load', () => resolve({
      status: request.status,
      header: (name) => request.getResponseHeader(name),
      text: request.responseText,
      json: () => JSON.parse(request.responseText),
    }));
    request.addEventListener('error', () => reject(new RequestError(0, 'The network failed')));
    request.addEventListener('abort', () => reject(new RequestError(0, 'Cancelled')));
    if (signal) {
      if (signal.aborted) return reject(new RequestError(0, 'Cancelled'));
      signal.addEventListener('abort', () => request.abort(), { once: true });
    }
    request.send(body);
  });
}

/** The `error` of the API's JSON body, else the status. */
export function errorMessage(response) {
  try {
    const message = response.json().error;
    if (message) return message;
  } catch {
    // Not the API's JSON: the status says it.
  }
  return `The server answered ${response.status}`;
}

/** Resolves with the JSON of a successful read, sent with `headers`; rejects with a `RequestError` otherwise. */
export async function getJSON(url, headers = {}) {
  const response = await send('GET', url, { headers: { ...headers, Accept: 'application/json' } });
  if (response.status < 200 || response.status > 299) throw new RequestError(response.status, errorMessage(response));
  return response.json();
}
