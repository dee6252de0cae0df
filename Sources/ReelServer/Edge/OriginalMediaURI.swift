/// The URI a client asked the edge for, as nginx forwards it in `X-Original-URI`
/// (`$request_uri`: undecoded, un-normalised, possibly with a query), read the way the media
/// routes' templates read a path: split at "/", nothing percent-decoded, empty components
/// kept. So `%2e%2e`, `%2f`, `720p//x` or `a/../b` reach `MediaRequestCheck` exactly as the
/// API's own routes would see them, and fail to match a listed name there.
enum OriginalMediaURI: Equatable, Sendable {
    /// `/media/{token}/{id}/{name…}`.
    case media(token: String, id: String, name: String)
    /// `/img/{sig}/{id}/{hash}/{file}`.
    case image(signature: String, id: String, hash: String, file: String)

    /// Longer than any URL we sign (a token, an id, a 255-byte name): refused unread.
    static let maxLength = 1024

    /// Nil for anything that is not one of the two media templates (a 404).
    static func parse(_ uri: String) -> OriginalMediaURI? {
        guard uri.utf8.count <= maxLength else { return nil }
        // The query never names a file; the edge keys its cache on the path alone.
        let path = uri.prefix { $0 != "?" }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 2, parts[0].isEmpty else { return nil }
        switch parts[1] {
        case "media":
            guard parts.count >= 5, !parts[2].isEmpty, !parts[3].isEmpty else { return nil }
            return .media(token: parts[2], id: parts[3], name: parts[4...].joined(separator: "/"))
        case "img":
            guard parts.count == 6, parts[2...].allSatisfy({ !$0.isEmpty }) else { return nil }
            return .image(signature: parts[2], id: parts[3], hash: parts[4], file: parts[5])
        default:
            return nil
        }
    }
}
