/// The one error type of ReelHLS: a playlist that is malformed or not the kind expected.
public enum HLSError: Error, Sendable, Equatable, CustomStringConvertible {
    case invalidPlaylist(String)

    public var description: String {
        switch self {
        case .invalidPlaylist(let reason): "invalid HLS playlist: \(reason)"
        }
    }
}
