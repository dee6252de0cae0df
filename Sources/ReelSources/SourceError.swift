import Foundation

/// Everything that can go wrong talking to an outside catalogue, in words for the person
/// running the import. No case ever carries the API key.
public enum SourceError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No key configured (`what` names where one can be given).
    case notConfigured(String)
    /// The catalogue refused the key (401/403).
    case keyRefused(source: String)
    /// The rate limit is used up and resets too far ahead to wait for, or 429 kept coming.
    case rateLimited(source: String, resetsAt: Date?)
    /// The catalogue could not be reached or answered with a server error.
    case unreachable(String)
    /// The catalogue answered with something we cannot read.
    case badAnswer(String)
    /// The item's file is gone (404/410): that item is skipped.
    case fileMissing(String)
    /// The item's file could not be fetched for another reason: that item is skipped.
    case downloadFailed(String)
    /// A request we would not send (a bad base URL, a page out of range).
    case invalidRequest(String)
    /// The local disk refused the download.
    case storage(String)

    public var description: String {
        switch self {
        case .notConfigured(let what): return what
        case .keyRefused(let source):
            return "the \(source) key was refused: check REELHOUSE_\(source.uppercased())_KEY (or --key)"
        case .rateLimited(let source, let resetsAt):
            guard let resetsAt else { return "the \(source) rate limit is used up; try again later" }
            return "the \(source) rate limit is used up until \(resetsAt.formatted(Date.ISO8601FormatStyle(timeZone: .gmt))); try again then"
        case .unreachable(let why): return why
        case .badAnswer(let why): return why
        case .fileMissing(let why): return why
        case .downloadFailed(let why): return why
        case .invalidRequest(let why): return why
        case .storage(let why): return why
        }
    }

    /// Whether the run goes on without this item (only the item's own file was the problem).
    public var skipsItemOnly: Bool {
        switch self {
        case .fileMissing, .downloadFailed: return true
        default: return false
        }
    }
}
