import Foundation
import ReelModels

/// What the profile needs to know about a post besides its id (the server reads it from the
/// post; MovieLens has none of it).
public struct PostTraits: Sendable, Equatable {
    public var tags: [String]
    /// Uploader key (`UploaderKey.key`).
    public var uploader: String?

    public init(tags: [String] = [], uploader: String? = nil) {
        self.tags = tags
        self.uploader = uploader
    }
}

/// A person's `UserProfile` straight from their raw interactions (`reelhouse eval`, tests), made
/// by the very functions the server's store runs on every event: each post's interactions fold
/// into a `PostSignal` (its `user_post_signals` row), each tag and uploader into an
/// `Affinity` score (its `user_affinities` row), and `build(signals:…)` turns those into
/// the profile For You ranks with. So the offline numbers are the served feed's numbers.
public struct ProfileBuilder: Sendable {
    public init() {}

    /// `events`: one person's, any order. `traits`: a post's tags and uploader key (nil
    /// when unknown). `now`: the instant the profile is for (affinity decay).
    public func build(
        events: [WatchEvent], now: Date, traits: (Int64) -> PostTraits? = { _ in nil }
    ) -> UserProfile {
        var signals: [Int64: PostSignal] = [:]
        var tagScores: [String: (score: Double, at: Date)] = [:]
        var uploaderScores: [String: (score: Double, at: Date)] = [:]
        var signalCount = 0
        for interaction in events.sorted(by: { $0.at < $1.at }) {
            if interaction.type != .impression { signalCount += 1 }
            signals[interaction.postID, default: PostSignal(postID: interaction.postID, seenAt: interaction.at)].add(interaction)
            let weight = SignalWeights.weight(of: interaction)
            guard weight != 0, let post = traits(interaction.postID) else { continue }
            for tag in Set(post.tags) {
                let old = tagScores[tag]
                tagScores[tag] = Affinity.updated(score: old?.score, at: old?.at, adding: weight, now: interaction.at)
            }
            if let uploader = post.uploader {
                let old = uploaderScores[uploader]
                uploaderScores[uploader] = Affinity.updated(score: old?.score, at: old?.at, adding: weight, now: interaction.at)
            }
        }
        func current(_ scores: [String: (score: Double, at: Date)]) -> [String: Double] {
            scores.mapValues { Affinity.score($0.score, at: $0.at, now: now) }
        }
        return build(
            signals: Array(signals.values), tagScores: current(tagScores), uploaderScores: current(uploaderScores),
            signalCount: signalCount
        )
    }

    /// Everyone's positive histories as the `recs.neighbors` job reads them from `watch_events`:
    /// per person, in time order, the posts of the events whose own weight is positive, the most
    /// recent `maxPerUser` distinct ones (oldest first); a person with fewer than two is left out
    /// (one post co-visits nothing). `events`: everyone's, by person, any order.
    public static func positiveHistories(_ events: [Int64: [WatchEvent]], maxPerUser: Int = 500) -> [[Int64]] {
        var byPerson: [Int64: [(at: Date, postID: Int64)]] = [:]
        for (person, events) in events {
            for event in events where SignalWeights.weight(of: event) > 0 {
                byPerson[person, default: []].append((event.at, event.postID))
            }
        }
        return byPerson.keys.sorted().compactMap { person in
            let posts = byPerson[person]!.enumerated()
                .sorted { $0.element.at != $1.element.at ? $0.element.at < $1.element.at : $0.offset < $1.offset }
                .map(\.element.postID)
            var seen = Set<Int64>()
            var recent: [Int64] = []
            for post in posts.reversed() where seen.insert(post).inserted {
                recent.append(post)
                if recent.count == maxPerUser { break }
            }
            return recent.count > 1 ? recent.reversed() : nil
        }
    }
}
