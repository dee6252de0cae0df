import Foundation

/// What For You knows about one person when it ranks a page: built from the stored signals
/// (server) or from a training log (eval), updated on every event.
public struct UserProfile: Sendable, Equatable {
    /// A post the person engaged with positively; its neighbours are candidates.
    public struct Anchor: Sendable, Equatable {
        public var postID: Int64
        /// The label weight (a like counts more than a long view).
        public var weight: Double
        /// True when the engagement was explicit (like, favorite, good rating): the reason
        /// then reads "because you liked …", else "because you watched …".
        public var explicit: Bool
        public var at: Date

        public init(postID: Int64, weight: Double, explicit: Bool, at: Date) {
            self.postID = postID
            self.weight = weight
            self.explicit = explicit
            self.at = at
        }
    }

    /// Most recent first, at most `maxAnchors`.
    public var anchors: [Anchor]
    /// Decayed scores by tag name and by uploader key (lowercased, trimmed).
    public var tagAffinity: [String: Double]
    public var uploaderAffinity: [String: Double]
    /// Events other than impressions the person has sent (decides whether For You is the default).
    public var signalCount: Int
    /// How many of the posts served to the person in the last hour (at most the last
    /// `recentWindow`) carried each tag: short-term fatigue, which the scorer discounts, so a
    /// session moves between the person's tags instead of wearing out the strongest one.
    public var recentTagExposure: [String: Int] = [:]
    /// Tags the person has clearly rejected (skipped far more than watched; scores as the
    /// store keeps them, not scaled): exploration and ranking keep away from them.
    public var avoidedTags: Set<String> = []

    public static let maxAnchors = 50
    /// Served posts that count as recent exposure, and how far back.
    public static let recentWindow = 30
    public static let recentSeconds: Double = 3_600

    public init(anchors: [Anchor] = [], tagAffinity: [String: Double] = [:], uploaderAffinity: [String: Double] = [:], signalCount: Int = 0) {
        self.anchors = anchors
        self.tagAffinity = tagAffinity
        self.uploaderAffinity = uploaderAffinity
        self.signalCount = signalCount
    }

    public static let empty = UserProfile()
}
