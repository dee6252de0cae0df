// The engine's one error shape: an Error whose string `code` the feed turns into words.
// Codes: 'network' | 'key' | 'decode' | 'unsupported' | 'aborted' (NetworkError in loader.js
// adds the HTTP status and URL).

export const playerError = (code, message) => Object.assign(new Error(message), { code });

/** What a load, download or wait cut short by its abort signal rejects with. */
export const abortedError = () => playerError('aborted', 'aborted');
