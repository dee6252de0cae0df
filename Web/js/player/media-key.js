// The name bytes are kept under, in memory (ByteStore) and in the service worker: the post and
// the file, never the token. Media URLs carry a signed token in the path
// (`/media/{token}/{post}/{file}`; images `/img/{signature}/{post}/{hash}/{file}`), and a
// refreshed item gets new tokens for the very same files. Keyed by URL, bytes fetched under
// the old token would be orphaned and fetched again; keyed by token-free name, a fresh URL finds
// them. Only successful downloads are ever stored (loader.js), so an expired URL's refusal can
// never sit under any name. sw.js applies the same rule (it cannot import modules).

const TOKENED = /^\/(media|img)\/[^/]+\/(\d+)\/(.+)$/;

/** `origin/media/*\/{post}/{file}` for token-carrying URLs; any other URL is its own key. */
export function mediaKey(url) {
  const parsed = new URL(url, location.href);
  const match = TOKENED.exec(parsed.pathname);
  if (!match) return parsed.href;
  return `${parsed.origin}/${match[1]}/*/${match[2]}/${match[3]}${parsed.search}`;
}

/** The post id a media or image URL names, or null. */
export function mediaPostId(url) {
  const match = TOKENED.exec(new URL(url, location.href).pathname);
  return match ? Number(match[2]) : null;
}
