// The engine's one error shape: an Error whose string `code` the feed turns into words.
// Codes: 'network' | 'expired' | 'key' | 'decode' | 'unsupported' | 'aborted' (NetworkError
// and MediaExpiredError in loader.js add the HTTP status and URL).

export const playerError = (code, message) => Object.assign(new Error(message), { code });

/** What a load, download or wait cut short by its abort signal rejects with. */
export const abortedError = () => playerError('aborted', 'aborted');
