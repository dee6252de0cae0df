import Foundation

/// What can go wrong in ReelRank: only reading an evaluation log can (ranking itself is total).
public enum RankError: Error, Equatable, CustomStringConvertible {
    /// The log could not be read from disk.
    case unreadableLog(path: String, reason: String)
    /// A line of the log is not what its format says; `line` counts from 1 (the header is 1).
    case malformedLog(line: Int, reason: String)
    /// The log parsed but cannot be evaluated (no interactions, a single user…).
    case unusableLog(reason: String)

    public var description: String {
        switch self {
        case let .unreadableLog(path, reason): "cannot read \(path): \(reason)"
        case let .malformedLog(line, reason): "line \(line): \(reason)"
        case let .unusableLog(reason): reason
        }
    }
}
