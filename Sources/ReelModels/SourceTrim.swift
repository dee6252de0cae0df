import Foundation

/// The part of a video source a post shows: its transcode encodes only `start ..< start +
/// duration` (seconds). Stories cut a long video into such parts, one post each, all of one
/// kept source.
public struct SourceTrim: Codable, Sendable, Equatable {
    public var start: Double
    public var duration: Double

    public init(start: Double, duration: Double) {
        self.start = start
        self.duration = duration
    }

    /// The longest story item; a longer video becomes several.
    public static let storyPartLength: Double = 60

    /// A leftover shorter than this is container rounding (a 120.02 s file of two minutes of
    /// footage), not footage worth an item of its own; it stays with the part before it.
    static let negligibleTail: Double = 0.1

    /// `duration` seconds cut into `ceil(duration / length)` consecutive parts of `length`, the
    /// last one shorter; nil when it fits in one (the whole source, nothing to trim).
    public static func parts(ofDuration duration: Double, length: Double = storyPartLength) -> [SourceTrim]? {
        guard duration.isFinite, length > 0, duration > length + negligibleTail else { return nil }
        let count = Int(((duration - negligibleTail) / length).rounded(.up))
        return (0..<count).map { index in
            let start = Double(index) * length
            return SourceTrim(start: start, duration: index == count - 1 ? duration - start : length)
        }
    }
}
