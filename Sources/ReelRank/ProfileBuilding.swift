import Foundation
import ReelModels

// How a person's interactions become the compact aggregates the server stores
// (`user_post_signals`, `user_affinities`) and how those become a `UserProfile`. The server
// (reading its tables) and `reelhouse eval` (folding a training log) go through the same
// functions, so both rank with the same profile.

/// One person's running aggregate about one post: a `user_post_signals` row.
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
    /// Σ `SignalWeights.weight` of the interactions.
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

    /// Folds one interaction about this post in (any order; instants keep the latest).
    public mutating func add(_ interaction: Interaction) {
        seenAt = max(seenAt, interaction.at)
        label += SignalWeights.weight(of: interaction)
        switch interaction.type {
        case .impression:
            impressions += 1
            return
        case .view:
            views += 1
            watchedMs += interaction.watchedMs ?? 0
            if let watched = interaction.watchedMs, let duration = interaction.durationMs,
               WatchLabel.isLongView(watchedMs: watched, durationMs: duration) {
                longViews += 1
            }
        case .skip:
            skips += 1
            watchedMs += interaction.watchedMs ?? 0
        case .unlike, .unfavorite, .notInterested:
            explicit = false
        default:
            if SignalWeights.isExplicit(interaction) { explicit = true }
        }
        watchedAt = max(watchedAt ?? interaction.at, interaction.at)
    }
}

/// A decayed taste score (`user_affinities.score` with its `updated_at`): every interaction
/// adds its weight to the score decayed to that instant, so old tastes fade without a batch job.
public enum AffinityDecay {
    /// τ: an affinity halves in about three weeks (τ·ln 2).
    public static let decaySeconds: Double = 30 * 86_400

    public static func adding(weight: Double, at: Date, to score: Double?, updatedAt: Date?) -> (score: Double, updatedAt: Date) {
        guard let score, let updatedAt else { return (weight, at) }
        if at >= updatedAt { return (current(score: score, updatedAt: updatedAt, now: at) + weight, at) }
        // An event older than the stored instant (a late batch) adds its decayed weight.
        return (score + weight * exp(-(updatedAt.timeIntervalSince(at)) / decaySeconds), updatedAt)
    }

    public static func current(score: Double, updatedAt: Date, now: Date) -> Double {
        score * exp(-max(0, now.timeIntervalSince(updatedAt)) / decaySeconds)
    }
}

extension UserProfile {
    /// Tags and uploaders the profile keeps (the strongest positive ones).
    public static let maxTags = 8
    public static let maxUploaders = 5
    /// For You becomes a person's default feed mode once they sent this many signals (events
    /// other than impressions).
    public static let signalsForForYou = 20

    /// The profile from a person's aggregates: anchors are the posts with a positive label,
    /// most recently watched first (at most `maxAnchors`); affinities are the strongest positive
    /// decayed scores at `now`, scaled so the strongest is 1.
    public static func build(
        signals: [PostSignal], tagScores: [String: Double], uploaderScores: [String: Double], signalCount: Int
    ) -> UserProfile {
        let anchors = signals
            .filter { $0.label > 0 && $0.watchedAt != nil }
            .sorted { ($0.watchedAt!, $0.postID) > ($1.watchedAt!, $1.postID) }
            .prefix(maxAnchors)
            .map { Anchor(postID: $0.postID, weight: $0.label, explicit: $0.explicit, at: $0.watchedAt!) }
        return UserProfile(
            anchors: Array(anchors), tagAffinity: strongest(tagScores, keep: maxTags),
            uploaderAffinity: strongest(uploaderScores, keep: maxUploaders), signalCount: signalCount
        )
    }

    static func strongest(_ scores: [String: Double], keep: Int) -> [String: Double] {
        let kept = scores.filter { $0.value > 0 }.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(keep)
        guard let top = kept.first?.value, top > 0 else { return [:] }
        return Dictionary(uniqueKeysWithValues: kept.map { ($0.key, $0.value / top) })
    }

    /// The profile's tags, strongest first.
    public var topTags: [String] { tagAffinity.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map(\.key) }
    public var topUploaders: [String] { uploaderAffinity.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map(\.key) }
    /// Nothing to personalise with: For You serves popular posts, then the shuffle.
    public var isCold: Bool { anchors.isEmpty && tagAffinity.isEmpty && uploaderAffinity.isEmpty }
}
