// HLS playlist parsing (RFC 8216), just what our fMP4 output and any well-formed VOD playlist
// need. Pure functions: text + the playlist's URL in, plain objects with absolute URLs out.

/** `url` (a feed item's media URL, maybe relative) resolved against the page, as playlists' URIs are. */
export const absolute = (url) => new URL(url, location.href).href;

/** Attribute list of a tag (`BANDWIDTH=1,CODECS="a,b"`) as an object of strings. */
export function parseAttributes(text) {
  const attributes = {};
  const pattern = /([A-Z0-9-]+)=("[^"]*"|[^,]*)/g;
  let match;
  while ((match = pattern.exec(text)) !== null) {
    const value = match[2];
    attributes[match[1]] = value.startsWith('"') ? value.slice(1, -1) : value;
  }
  return attributes;
}

function lines(text) {
  const all = text.split(/\r?\n/).map((line) => line.trim()).filter(Boolean);
  if (all[0] !== '#EXTM3U') throw new Error('not an HLS playlist (no #EXTM3U)');
  return all;
}

const resolve = (uri, base) => new URL(uri, base).href;

/**
 * Variants of a master playlist, smallest picture first (bandwidth breaks ties): the order of
 * the rungs, which the player climbs. Not by BANDWIDTH: it is measured from the real segments,
 * and for a simple picture (colour bars, a flat card) a larger rung can come out smaller than a
 * lower one; ordered by bandwidth, "climbing" then led to 240p and stayed there.
 */
export function parseMaster(text, baseUrl) {
  const all = lines(text);
  const variants = [];
  for (let index = 0; index < all.length; index += 1) {
    if (!all[index].startsWith('#EXT-X-STREAM-INF:')) continue;
    const attributes = parseAttributes(all[index].slice('#EXT-X-STREAM-INF:'.length));
    const uri = all.slice(index + 1).find((line) => !line.startsWith('#'));
    if (!uri) continue;
    const [width, height] = (attributes.RESOLUTION ?? '0x0').split('x').map(Number);
    variants.push({
      uri: resolve(uri, baseUrl),
      bandwidth: Number(attributes.BANDWIDTH) || 0,
      averageBandwidth: Number(attributes['AVERAGE-BANDWIDTH']) || Number(attributes.BANDWIDTH) || 0,
      width: width || 0,
      height: height || 0,
      codecs: attributes.CODECS ?? 'avc1.64001f,mp4a.40.2',
    });
  }
  if (variants.length === 0) throw new Error('the master playlist lists no variants');
  const pixels = (variant) => variant.width * variant.height;
  return variants.sort((a, b) => pixels(a) - pixels(b) || a.bandwidth - b.bandwidth);
}

/** 16-byte IV from a hex attribute (`0x…`). */
function ivFromHex(text) {
  const hex = text.replace(/^0x/i, '').padStart(32, '0');
  if (!/^[0-9a-f]{32}$/i.test(hex)) throw new Error(`bad IV ${text}`);
  return Uint8Array.from(hex.match(/../g), (pair) => parseInt(pair, 16));
}

/** A media playlist: init section, segments with their sequence numbers and keys. */
export function parseMedia(text, baseUrl) {
  const all = lines(text);
  const playlist = { targetDuration: 0, mediaSequence: 0, map: null, segments: [], endList: false, duration: 0 };
  let key = null;
  let pendingDuration = null;
  for (const line of all) {
    if (line.startsWith('#EXT-X-TARGETDURATION:')) playlist.targetDuration = Number(line.split(':')[1]);
    else if (line.startsWith('#EXT-X-MEDIA-SEQUENCE:')) playlist.mediaSequence = Number(line.split(':')[1]);
    else if (line.startsWith('#EXT-X-MAP:')) playlist.map = { uri: resolve(parseAttributes(line.slice(11)).URI, baseUrl) };
    else if (line.startsWith('#EXT-X-KEY:')) {
      const attributes = parseAttributes(line.slice(11));
      if (attributes.METHOD === 'NONE') key = null;
      else if (attributes.METHOD === 'AES-128') {
        key = { method: 'AES-128', uri: resolve(attributes.URI, baseUrl), iv: attributes.IV ? ivFromHex(attributes.IV) : null };
      } else throw new Error(`unsupported encryption ${attributes.METHOD}`);
    } else if (line.startsWith('#EXTINF:')) pendingDuration = parseFloat(line.slice(8));
    else if (line === '#EXT-X-ENDLIST') playlist.endList = true;
    else if (!line.startsWith('#') && pendingDuration !== null) {
      const sequence = playlist.mediaSequence + playlist.segments.length;
      playlist.segments.push({ uri: resolve(line, baseUrl), duration: pendingDuration, start: playlist.duration, sequence, key });
      playlist.duration += pendingDuration;
      pendingDuration = null;
    }
  }
  if (playlist.segments.length === 0) throw new Error('the media playlist lists no segments');
  return playlist;
}
