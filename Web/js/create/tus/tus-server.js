// What the tus server supports (OPTIONS): extensions, checksum algorithms and the size limit.
// Asked once per endpoint per page; a 404 means this server has no upload endpoint at all.
import { tusRequest, TusHttpError } from './tus-request.js';

const servers = new Map();

export function discoverServer(endpoint = '/api/v1/uploads') {
  if (!servers.has(endpoint)) {
    const pending = ask(endpoint);
    pending.catch(() => servers.delete(endpoint));   // ask again next time
    servers.set(endpoint, pending);
  }
  return servers.get(endpoint);
}

async function ask(endpoint) {
  const response = await tusRequest('OPTIONS', endpoint);
  if (response.status === 404 || response.status === 405) {
    throw new TusHttpError(response.status, 'uploads_unavailable', 'This server does not accept uploads yet.');
  }
  if (response.status < 200 || response.status >= 300) {
    throw new TusHttpError(response.status, `http_${response.status}`, `The upload endpoint answered HTTP ${response.status}.`);
  }
  const list = (name) => (response.header(name) ?? '').split(',').map((item) => item.trim().toLowerCase()).filter(Boolean);
  const algorithms = list('Tus-Checksum-Algorithm');
  const versions = list('Tus-Version');
  if (versions.length && !versions.includes('1.0.0')) {
    throw new TusHttpError(response.status, 'tus_version', `The server speaks tus ${versions.join(', ')}, not 1.0.0.`);
  }
  return {
    extensions: new Set(list('Tus-Extension')),
    checksum: algorithms.includes('sha256') ? 'sha256' : (algorithms.includes('sha1') ? 'sha1' : null),
    maxSize: Number(response.header('Tus-Max-Size')) || null,
  };
}
