import Foundation

/// What a cached file is, independent of how its URL was signed. The server's URLs already
/// name content: images live at `/img/{signature}/{post}/{content hash}/{file}` (a changed
/// poster gets a new hash, so a stale one can never be served), and media at
/// `/media/{token}/{post}/{path}`, where the token only changes with the hour while the files
/// of a published post never change (the server sends them `immutable`). Dropping the
/// signature keeps a cached segment useful after its URL is re-signed.
public struct CacheKey: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// The content identity of a server URL; any other URL is keyed by itself in full.
    public init(url: URL) {
        let parts = url.path.split(separator: "/", omittingEmptySubsequences: true)
        if parts.count >= 5, parts[0] == "img" {
            rawValue = "img/" + parts.dropFirst(2).joined(separator: "/")
        } else if parts.count >= 4, parts[0] == "media" {
            rawValue = "media/" + parts.dropFirst(2).joined(separator: "/")
        } else {
            rawValue = url.absoluteString
        }
    }

    public var description: String { rawValue }
}
