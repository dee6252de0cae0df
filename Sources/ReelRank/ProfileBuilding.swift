import Foundation
import ReelModels

// How a person's interactions become the compact aggregates the server stores
// (`user_post_signals`, `user_affinities`), and how those become the `UserProfile` that
// `ProfileBuilder.build(events:)` makes from the raw events (what `reelhouse eval`
// uses): the same anchors (positive labels, most recent first) and the same decayed affinities,
// so the served feed ranks with the profile the offline numbers measured.

extension PostSignal {
    /// Folds one interaction about this post in (any order; instants keep the latest).
    public mutating func add(_ interaction: WatchEvent) {
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
        default:
            // As `ProfileBuilder`'s labels: once explicit, explicit (the server reads the
            // current favorite and rating instead).
            if SignalWeights.isExplicit(interaction) { explicit = true }
        }
        watchedAt = max(watchedAt ?? interaction.at, interaction.at)
    }
}

extension ProfileBuilder {
    /// The profile from a person's stored aggregates: `signals` (at least the most recent
    /// `maxAnchors` with a positive label; others are ignored), their decayed tag and uploader
    /// scores at the profile's instant, and the count of their events other than impressions.
    /// Anchors as `build(events:)` orders them: positive label, most recently watched
    /// first (ties: higher post id first).
    public func build(
        signals: [PostSignal], tagScores: [String: Double], uploaderScores: [String: Double], signalCount: Int
    ) -> UserProfile {
        var watched: [(signal: PostSignal, at: Date)] = []
        for signal in signals where signal.label > 0 {
            if let at = signal.watchedAt { watched.append((signal, at)) }
        }
        watched.sort { $0.at != $1.at ? $0.at > $1.at : $0.signal.postID > $1.signal.postID }
        let anchors = watched.prefix(UserProfile.maxAnchors).map {
            UserProfile.Anchor(postID: $0.signal.postID, weight: $0.signal.label, explicit: $0.signal.explicit, at: $0.at)
        }
        var profile = UserProfile(
            anchors: Array(anchors), tagAffinity: UserProfile.strongest(tagScores, keep: UserProfile.maxTags),
            uploaderAffinity: UserProfile.strongest(uploaderScores, keep: UserProfile.maxUploaders), signalCount: signalCount
        )
        profile.avoidedTags = UserProfile.avoided(tagScores)
        return profile
    }
}

extension UserProfile {
    /// Tags and uploaders a profile keeps: the strongest positive ones.
    public static let maxTags = 8
    public static let maxUploaders = 5

    /// The strongest positive scores, at most `keep`, scaled so the strongest is 1 (a heavy
    /// user's large sums and a new user's small ones rank alike).
    static func strongest(_ scores: [String: Double], keep: Int) -> [String: Double] {
        let kept = scores.filter { $0.value > 0 }.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(keep)
        guard let top = kept.first?.value, top > 0 else { return [:] }
        return Dictionary(uniqueKeysWithValues: kept.map { ($0.key, $0.value / top) })
    }

    /// Tags a profile steers clear of: the most negative scores at or below `avoidThreshold`
    /// (two skips' worth more rejected than watched), at most `maxAvoidedTags`, lowercased (a
    /// post's tags are compared without case, as the tag vocabulary matches them).
    public static let maxAvoidedTags = 4
    public static let avoidThreshold = -1.0

    static func avoided(_ scores: [String: Double]) -> Set<String> {
        Set(scores.filter { $0.value <= avoidThreshold }.sorted { ($0.value, $0.key) < ($1.value, $1.key) }
            .prefix(maxAvoidedTags).map { $0.key.lowercased() })
    }

    /// For You becomes a person's default feed mode once they sent this many signals (events
    /// other than impressions).
    public static let signalsForForYou = 20

    /// The profile's tags, strongest first.
    public var topTags: [String] { tagAffinity.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map(\.key) }
    public var topUploaders: [String] { uploaderAffinity.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map(\.key) }
    /// Nothing to personalise with: For You serves popular posts, then the shuffle.
    public var isCold: Bool { anchors.isEmpty && tagAffinity.isEmpty && uploaderAffinity.isEmpty }
}
