/// The one error type of the media pipeline and of the storages it publishes to. It is
/// declared here, next to the storage protocols, so the server can map it to HTTP without
/// linking the pipeline. Messages are for people: they end up in the import report, in
/// `reelhouse jobs`, and in the API's job status.
public enum PipelineError: Error, Sendable, Equatable, CustomStringConvertible {
    /// ffmpeg, ffprobe or xz is not installed.
    case toolMissing(String)
    /// A tool ran and failed; the associated text is the reason (usually its stderr tail).
    case toolFailed(String, String)
    /// The data folder or a staged output is not what it must be.
    case storage(String)
    /// The stored post is not in a state this step can work on.
    case inconsistent(String)
    /// The input was refused (not media, too long, already a post being made…): the reason is
    /// for the person who sent it.
    case rejected(String)
    /// Another request (on this node or another) stored bytes of the same upload at the same
    /// offset first; this one's bytes were not kept.
    case uploadConflict(String)

    public var description: String {
        switch self {
        case .toolMissing(let tool):
            "\(tool) was not found on PATH; install it (Debian: apt-get install -y ffmpeg xz-utils)"
        case .toolFailed(let tool, let reason):
            "\(tool) failed: \(reason)"
        case .storage(let reason):
            "storage: \(reason)"
        case .inconsistent(let reason):
            "inconsistent library state: \(reason)"
        case .rejected(let reason):
            reason
        case .uploadConflict(let reason):
            reason
        }
    }
}
