import Foundation

/// Everything that can go wrong in ReelImport, as values: the scanner throws it (typed throws),
/// the sidecar parser returns it in a `Result`, and the loader turns it into a warning, so a
/// broken sidecar never costs the user a video.
public enum ImportError: Error, Sendable, Equatable {
    /// A path given to the scanner does not exist (or is a broken symbolic link).
    case rootNotFound(String)
    /// A path given to the scanner exists but its listing cannot be read.
    case unreadable(path: String, reason: String)
    /// The sidecar has no bytes at all (an interrupted download leaves these behind).
    case emptySidecar
    /// The sidecar's bytes are not JSON (truncated, binary, wrong encoding).
    case invalidJSON(String)
    /// Valid JSON, but not an object from yt-dlp, instaloader or gallery-dl.
    case unrecognizedSidecar(String)
}

extension ImportError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .rootNotFound(let path):
            "\(path): no such file or folder"
        case .unreadable(let path, let reason):
            "\(path): cannot be read (\(reason))"
        case .emptySidecar:
            "the sidecar is empty"
        case .invalidJSON(let detail):
            "the sidecar is not valid JSON (\(detail))"
        case .unrecognizedSidecar(let detail):
            "the sidecar is not a yt-dlp, instaloader or gallery-dl file (\(detail))"
        }
    }
}
