import Foundation

/// What one viewer did with one post. Kept per user, so one person's favorites and ratings
/// never show up as another's.
public struct ViewerState: Codable, Sendable, Equatable {
    public var isFavorited: Bool
    /// 0 means "not rated"; 1…5 otherwise.
    public var rating: Int
    /// Where playback stopped, in seconds, to resume there; nil when not started or finished.
    public var position: Double?
    /// When the viewer last saw the post, so clients can dim what was already watched.
    public var seenAt: Date?

    public init(isFavorited: Bool = false, rating: Int = 0, position: Double? = nil, seenAt: Date? = nil) {
        self.isFavorited = isFavorited
        self.rating = rating
        self.position = position
        self.seenAt = seenAt
    }

    /// A post the viewer never touched. Spell it `ViewerState.none` where an optional is
    /// expected: a bare `.none` there means `nil`.
    public static let none = ViewerState()
}
