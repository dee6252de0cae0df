// A small tus 1.0 client (core + creation + creation-with-upload + termination + checksum):
// POST creates the upload (carrying the first chunk when the server allows it), PATCH sends
// the rest chunk by chunk with Upload-Offset, HEAD finds where to continue after a pause, a
// dropped connection or a page reload. The upload URL is remembered per file fingerprint.
import { tusRequest, failureOf, TusHttpError } from './tus-request.js';
import { fingerprint, rememberUpload, recallUpload, forgetUpload } from './resume-store.js';
import { discoverServer } from './tus-server.js';

const DEFAULT_CHUNK = 2 * 1024 * 1024;
const RETRY_DELAYS_MS = [1000, 3000, 5000, 10000, 20000];
// Statuses worth another try as they are: the server was busy, locked or briefly broken.
const TRANSIENT = new Set([0, 423, 429, 500, 502, 503, 504]);

/** Upload-Metadata: comma-separated "key base64(value)" pairs; empty values are left out. */
export function encodeMetadata(metadata) {
  return Object.entries(metadata)
    .filter(([, value]) => value !== undefined && value !== null && String(value) !== '')
    .map(([key, value]) => {
      const bytes = new TextEncoder().encode(String(value));
      let binary = '';
      for (const byte of bytes) binary += String.fromCharCode(byte);
      return `${key} ${btoa(binary)}`;
    })
    .join(',');
}

export class TusUpload {
  /**
   * @param {File|Blob} file   a File (or a Blob with name, lastModified given in options)
   * @param {object} options   endpoint, metadata, chunkSize, and the callbacks
   *   onProgress(sent, total), onState(state), onComplete(result) where result holds the
   *   server's Upload-Job-Id / Upload-Post-Id headers (as numbers) when it sends them.
   */
  constructor(file, { endpoint = '/api/v1/uploads', metadata = {}, chunkSize = DEFAULT_CHUNK, onProgress, onState, onComplete } = {}) {
    this.file = file;
    this.endpoint = endpoint;
    this.metadata = metadata;
    this.chunkSize = chunkSize;
    this.key = fingerprint(file, endpoint);
    this.url = recallUpload(this.key);
    this.offset = 0;
    this.state = 'idle';   // idle → uploading ⇄ paused → complete | failed
    this.callbacks = { onProgress, onState, onComplete };
    this.controller = null;
  }

  get resumable() { return this.url !== null; }

  async start() {
    if (this.state === 'uploading' || this.state === 'complete') return;
    this.#setState('uploading');
    this.controller = new AbortController();
    const { signal } = this.controller;
    try {
      const server = await discoverServer(this.endpoint);
      let attempt = 0;
      for (;;) {
        try {
          await this.#run(server, signal);
          return;
        } catch (error) {
          if (error.name === 'AbortError') throw error;
          if (!TRANSIENT.has(error.status) || attempt >= RETRY_DELAYS_MS.length) throw error;
          await wait(RETRY_DELAYS_MS[attempt], signal);
          attempt += 1;
        }
      }
    } catch (error) {
      if (error.name === 'AbortError') { this.#setState('paused'); return; }
      this.error = error;
      this.#setState('failed');
    }
  }

  pause() {
    if (this.state !== 'uploading') return;
    this.controller?.abort();
  }

  /** Termination: the server drops the partial file; the fingerprint is forgotten. */
  async cancel() {
    this.controller?.abort();
    const url = this.url;
    this.url = null;
    forgetUpload(this.key);
    this.#setState('cancelled');
    if (url) {
      try { await tusRequest('DELETE', url); } catch { /* the server expires it anyway */ }
    }
  }

  async #run(server, signal) {
    if (this.url) {
      const resumed = await this.#resume(signal);
      if (!resumed) { this.url = null; forgetUpload(this.key); }
    }
    if (!this.url) await this.#create(server, signal);
    while (this.offset < this.file.size) {
      await this.#patch(server, signal);
    }
    if (this.state === 'uploading') this.#finish(await this.#awaitImport(this.lastResponse, signal));
  }

  /**
   * The server records a complete upload's import as a job and normally answers the last
   * chunk with the post it became. When the import takes longer the answer names only the
   * import job: ask HEAD again (backing off to 2 s, for up to 5 minutes) until it names the
   * post. A file the import refused is gone from the server; its job says why.
   */
  async #awaitImport(response, signal) {
    const importJob = response?.header('Upload-Job-Id');
    if (!importJob || response.header('Upload-Post-Id')) return response;
    let delay = 250;
    const deadline = Date.now() + 5 * 60 * 1000;
    while (Date.now() < deadline) {
      await wait(delay, signal);
      delay = Math.min(2000, delay * 2);
      const head = await tusRequest('HEAD', this.url, { signal, headers: { 'Cache-Control': 'no-store' } });
      if (head.status === 404) {
        const job = await fetch(`/api/v1/jobs/${encodeURIComponent(importJob)}`, { signal }).then((r) => (r.ok ? r.json() : null)).catch(() => null);
        throw new TusHttpError(422, 'invalid_media', job?.last_error ?? 'The server could not publish this file.');
      }
      if (head.status >= 200 && head.status < 300 && head.header('Upload-Post-Id')) return head;
    }
    return response;
  }

  /** HEAD: where the server's copy ends. False when it is gone (404, 410) and we start over. */
  async #resume(signal) {
    const response = await tusRequest('HEAD', this.url, { signal, headers: { 'Cache-Control': 'no-store' } });
    if (response.status === 404 || response.status === 410 || response.status === 403) return false;
    if (response.status < 200 || response.status >= 300) throw failureOf(response, 'Resuming the upload failed');
    this.offset = Number(response.header('Upload-Offset')) || 0;
    this.lastResponse = response;
    this.#progress(this.offset);
    return true;
  }

  async #create(server, signal) {
    if (server.maxSize && this.file.size > server.maxSize) {
      const megabytes = (server.maxSize / 1048576).toFixed(0);
      throw new TusHttpError(413, 'too_large', `This file is larger than the server's limit of ${megabytes} MB.`);
    }
    const headers = { 'Upload-Length': String(this.file.size), 'Upload-Metadata': encodeMetadata(this.metadata) };
    let body = null;
    let end = 0;
    if (server.extensions.has('creation-with-upload') && this.file.size > 0) {
      end = Math.min(this.file.size, this.chunkSize);
      body = this.file.slice(0, end);
      headers['Content-Type'] = 'application/offset+octet-stream';
      Object.assign(headers, await checksumHeader(server, body));
    }
    const response = await tusRequest('POST', this.endpoint, {
      headers, body, signal, onProgress: body ? (sent) => this.#progress(Math.min(sent, end)) : undefined,
    });
    if (response.status !== 201) throw failureOf(response, 'The server refused the upload');
    const location = response.header('Location');
    if (!location) throw new TusHttpError(response.status, 'bad_response', 'The server did not say where the upload lives.');
    this.url = new URL(location, new URL(this.endpoint, window.location.href)).href;
    rememberUpload(this.key, this.url);
    this.offset = body ? Number(response.header('Upload-Offset') ?? 0) : 0;
    this.lastResponse = response;
    this.#progress(this.offset);
  }

  async #patch(server, signal) {
    const start = this.offset;
    const end = Math.min(this.file.size, start + this.chunkSize);
    const chunk = this.file.slice(start, end);
    const headers = {
      'Upload-Offset': String(start), 'Content-Type': 'application/offset+octet-stream',
      ...(await checksumHeader(server, chunk)),
    };
    const response = await tusRequest('PATCH', this.url, {
      headers, body: chunk, signal, onProgress: (sent) => this.#progress(start + Math.min(sent, end - start)),
    });
    if (response.status === 409 || response.status === 460) {
      this.resyncs = (this.resyncs ?? 0) + 1;
      if (this.resyncs > 3) throw failureOf(response, 'The server keeps refusing this chunk');
      // Our offset disagrees with the server's (another tab, or a lost answer): ask and continue.
      // 460 is a failed checksum: the chunk is simply sent again from the server's offset.
      const resumed = await this.#resume(signal);
      if (!resumed) throw new TusHttpError(404, 'upload_gone', 'The server no longer has this upload. Start it again.');
      return;
    }
    if (response.status === 404 || response.status === 410) {
      forgetUpload(this.key);
      this.url = null;
      throw new TusHttpError(response.status, 'upload_gone', 'The upload expired on the server. Start it again.');
    }
    if (response.status !== 204 && response.status !== 200) throw failureOf(response, 'Sending the file failed');
    const next = Number(response.header('Upload-Offset'));
    if (!Number.isFinite(next) || next <= start) throw new TusHttpError(response.status, 'bad_response', 'The server did not accept any bytes.');
    this.offset = next;
    this.resyncs = 0;
    this.lastResponse = response;
    this.#progress(this.offset);
  }

  #finish(response) {
    forgetUpload(this.key);
    const number = (name) => { const value = Number(response?.header(name)); return Number.isInteger(value) && value > 0 ? value : null; };
    this.#setState('complete');
    this.callbacks.onComplete?.({ url: this.url, jobId: number('Upload-Job-Id'), postId: number('Upload-Post-Id') });
  }

  #progress(sent) { this.callbacks.onProgress?.(sent, this.file.size); }

  #setState(state) {
    this.state = state;
    this.callbacks.onState?.(state, this);
  }
}

/** Upload-Checksum for a chunk, when the server takes sha256 or sha1 and the page can hash. */
async function checksumHeader(server, blob) {
  const algorithm = server.checksum;
  if (!algorithm || !globalThis.crypto?.subtle) return {};
  const digest = await crypto.subtle.digest(algorithm === 'sha256' ? 'SHA-256' : 'SHA-1', await blob.arrayBuffer());
  let binary = '';
  for (const byte of new Uint8Array(digest)) binary += String.fromCharCode(byte);
  return { 'Upload-Checksum': `${algorithm} ${btoa(binary)}` };
}

function wait(ms, signal) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => { clearTimeout(timer); reject(new DOMException('paused', 'AbortError')); }, { once: true });
  });
}
