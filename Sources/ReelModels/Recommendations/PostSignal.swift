import Foundation

/// One person's running aggregate about one post: a `user_post_signals` row. The store keeps
/// it; how events fold into it (`add`) is For You's (ReelRank).
public struct PostSignal: Sendable, Equatable {
    public var postID: Int64
    /// Last time the post was served to the person or an event named it.
    public var seenAt: Date
    /// Last event other than an impression; nil while the post was only shown.
    public var watchedAt: Date?
    public var impressions = 0
    public var views = 0
    public var longViews = 0
    public var skips = 0
    public var watchedMs = 0
    /// Σ of the events' weights (ReelRank's `SignalWeights`).
    public var label = 0.0
    /// Whether the person currently approves of the post explicitly (liked, favorited, rated
    /// it well); the server reads it from the post's favorite and rating state.
    public var explicit = false

    public init(postID: Int64, seenAt: Date, watchedAt: Date? = nil, label: Double = 0, explicit: Bool = false) {
        self.postID = postID
        self.seenAt = seenAt
        self.watchedAt = watchedAt
        self.label = label
        self.explicit = explicit
    }
}
