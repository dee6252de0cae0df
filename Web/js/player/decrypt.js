// Full-segment AES-128-CBC (RFC 8216 §5.2) with WebCrypto. The IV is the EXT-X-KEY IV when
// given, else the segment's media sequence number as a 128-bit big-endian integer.

export function ivForSequence(sequence) {
  const iv = new Uint8Array(16);
  let value = BigInt(sequence);
  for (let index = 15; index >= 0 && value > 0n; index -= 1) {
    iv[index] = Number(value & 0xffn);
    value >>= 8n;
  }
  return iv;
}

export async function importKey(bytes) {
  if (bytes.byteLength !== 16) throw Object.assign(new Error(`an AES-128 key has 16 bytes, not ${bytes.byteLength}`), { code: 'key' });
  return crypto.subtle.importKey('raw', bytes, { name: 'AES-CBC' }, false, ['decrypt']);
}

/** Decrypts one segment; a wrong key shows up here as bad padding (OperationError). */
export async function decryptSegment(cryptoKey, iv, data) {
  try {
    return await crypto.subtle.decrypt({ name: 'AES-CBC', iv }, cryptoKey, data);
  } catch (error) {
    throw Object.assign(new Error(`the segment does not decrypt with this key (${error.name})`), { code: 'key' });
  }
}
