/// The one error type of ReelMedia. Cases carry a short human explanation so the pipeline can
/// show *why* something failed (a post's `failureReason`) without interpreting the case.
public enum MediaError: Error, Sendable, Equatable, CustomStringConvertible {
    /// ffprobe's JSON could not be read or describes nothing usable.
    case invalidProbe(String)
    /// No ladder can be planned for the source (e.g. it exceeds H.264 level 4.2).
    case unsupportedSource(String)
    /// Key or IV of the wrong size, or a ciphertext that does not decrypt.
    case crypto(String)
    /// A subtitle sidecar that is not usable WebVTT or SubRip.
    case invalidSubtitles(SubtitleProblem)

    public var description: String {
        switch self {
        case .invalidProbe(let reason): "invalid ffprobe output: \(reason)"
        case .unsupportedSource(let reason): "unsupported source: \(reason)"
        case .crypto(let reason): "segment encryption failed: \(reason)"
        case .invalidSubtitles(let problem): "the subtitles file \(problem)"
        }
    }
}
