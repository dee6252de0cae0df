// Full-segment AES-128-CBC (RFC 8216 §5.2) with WebCrypto. The IV is the EXT-X-KEY IV when
// given, else the segment's media sequence number as a 128-bit big-endian integer.
import { playerError } from './errors.js';

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
  if (bytes.byteLength !== 16) throw playerError('key', `an AES-128 key has 16 bytes, not ${bytes.byteLength}`);
  return crypto.subtle.importKey('raw', bytes, { name: 'AES-CBC' }, false, ['decrypt']);
}

// Boxes an fMP4 media segment or init section may start with (ISO/IEC 14496-12).
const LEADING_BOXES = new Set(['styp', 'moof', 'sidx', 'emsg', 'prft', 'ftyp', 'moov', 'free', 'skip']);

/** Whether bytes begin like an ISO BMFF file: a plausible size, then a known box type. */
export function looksLikeMp4(plain) {
  if (plain.byteLength < 8) return false;
  const bytes = new Uint8Array(plain, 0, 8);
  const size = new DataView(plain).getUint32(0);
  const type = String.fromCharCode(...bytes.subarray(4, 8));
  return (size === 1 || size >= 8) && LEADING_BOXES.has(type);
}

/**
 * Decrypts one segment. A wrong key usually shows up as bad PKCS7 padding (OperationError),
 * but about 1 in 256 wrong keys pads validly by chance; checking that the plaintext starts
 * with an MP4 box turns those into the same 'key' error instead of garbage for the decoder.
 * `expectMp4: false` skips that check (for data that is not a media segment).
 */
export async function decryptSegment(cryptoKey, iv, data, { expectMp4 = true } = {}) {
  let plain;
  try {
    plain = await crypto.subtle.decrypt({ name: 'AES-CBC', iv }, cryptoKey, data);
  } catch (error) {
    throw playerError('key', `the segment does not decrypt with this key (${error.name})`);
  }
  if (expectMp4 && !looksLikeMp4(plain)) {
    throw playerError('key', 'the segment decrypts to something that is not MP4: wrong key or IV');
  }
  return plain;
}
