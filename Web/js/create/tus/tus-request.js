// One tus request over XMLHttpRequest: fetch cannot report upload progress, and a chunk of a
// few megabytes on a phone network takes long enough that people want to see it move.

export class TusHttpError extends Error {
  constructor(status, code, message) {
    super(message);
    this.name = 'TusHttpError';
    this.status = status;   // 0 when the request never reached the server
    this.code = code;
  }
}

/**
 * Sends one request; resolves with { status, header(name), json } for any HTTP answer (callers
 * decide what a status means) and rejects with TusHttpError(0) when the network fails.
 * `signal` aborts it (pause); `onProgress(bytesSent)` reports the body as it goes.
 */
export function tusRequest(method, url, { headers = {}, body = null, signal, onProgress } = {}) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, url);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Tus-Resumable', '1.0.0');
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    if (onProgress) xhr.upload.onprogress = (event) => onProgress(event.loaded);
    const abort = () => xhr.abort();
    signal?.addEventListener('abort', abort, { once: true });
    const done = () => signal?.removeEventListener('abort', abort);
    xhr.onload = () => {
      done();
      let json = null;
      try { json = xhr.responseText ? JSON.parse(xhr.responseText) : null; } catch { /* not JSON */ }
      resolve({ status: xhr.status, header: (name) => xhr.getResponseHeader(name), json });
    };
    xhr.onerror = () => { done(); reject(new TusHttpError(0, 'offline', 'The server could not be reached.')); };
    xhr.onabort = () => { done(); reject(new DOMException('The upload was paused.', 'AbortError')); };
    xhr.send(body);
  });
}

/** The server's {"error":{code,message}} of a failed answer, or a plain one from its status. */
export function failureOf(response, fallback) {
  const error = response.json?.error ?? {};
  return new TusHttpError(response.status, error.code ?? `http_${response.status}`, error.message ?? `${fallback} (HTTP ${response.status}).`);
}
