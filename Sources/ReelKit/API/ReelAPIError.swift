/// Everything that can go wrong talking to a Reelhouse server, sorted by what an app does
/// about it: `offline` and `server` are worth retrying later (the offline queue keeps such
/// mutations), `unauthorized` sends the user to sign in, `notFound` drops the item,
/// `expired` (and `forbidden` from a signed media URL) refetches the item for fresh URLs,
/// `rejected` is a bug or bad input, `decoding` means client and server disagree on the wire.
public enum ReelAPIError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No answer at all: no network, connection refused, DNS failure, timeout.
    case offline(String)
    /// 401: missing, wrong, revoked or expired credentials (or a wrong password at login).
    case unauthorized(code: String, message: String)
    /// 403: signed in, but not allowed.
    case forbidden(message: String)
    /// 404: the item is gone for good; drop it.
    case notFound(message: String)
    /// 410: a signed media URL's time is up. The item is still there: refetch it for fresh URLs.
    case expired(message: String)
    /// 429: back off for `retryAfter` seconds.
    case rateLimited(retryAfter: Int?)
    /// Any other 4xx, with the server's `{"error":{"code","message"}}`.
    case rejected(status: Int, code: String, message: String)
    /// 5xx: the server failed; try again later.
    case server(status: Int, message: String)
    /// The body is not what this version of ReelKit expects.
    case decoding(String)

    /// True when the same request may succeed later without any change by the user.
    public var isTransient: Bool {
        switch self {
        case .offline, .server, .rateLimited: true
        case .unauthorized, .forbidden, .notFound, .expired, .rejected, .decoding: false
        }
    }

    /// True when a media URL stopped working because of its signature (expired, or the server's
    /// secret rotated): the item's fresh URLs will work.
    public var needsFreshURLs: Bool {
        switch self {
        case .expired, .forbidden: true
        default: false
        }
    }

    /// A feed cursor the server no longer accepts (its secret rotated, or it was altered):
    /// the feed starts again from a fresh first page.
    public var isRefusedCursor: Bool {
        if case .rejected(400, "invalid_cursor", _) = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case .offline(let why): "offline: \(why)"
        case .unauthorized(let code, let message): "unauthorized (\(code)): \(message)"
        case .forbidden(let message): "forbidden: \(message)"
        case .notFound(let message): "not found: \(message)"
        case .expired(let message): "expired: \(message)"
        case .rateLimited(let seconds): "rate limited; retry in \(seconds.map(String.init) ?? "?") s"
        case .rejected(let status, let code, let message): "\(status) \(code): \(message)"
        case .server(let status, let message): "server error \(status): \(message)"
        case .decoding(let why): "unexpected response: \(why)"
        }
    }
}
