import Foundation
import ReelModels

/// What the profile needs to know about a post besides its id (the server reads it from the
/// post; MovieLens has none of it).
public struct PostTraits: Sendable, Equatable {
    public var tags: [String]
    /// Uploader key (lowercased, trimmed `uploader`, else `username`).
    public var uploader: String?

    public init(tags: [String] = [], uploader: String? = nil) {
        self.tags = tags
        self.uploader = uploader
    }
}

/// Builds a person's `UserProfile` from their interactions — the one function both the server
/// (from stored signals/events) and `reelhouse eval` (from a training log) use, so the offline
/// numbers are the served feed's numbers.
///
/// A post's label is the sum of its interactions' `SignalWeights` (a long view plus a like is a
/// strong anchor; a view followed by "not interested" is none). Posts with a positive label are
/// anchors, most recent first; tags and uploaders gather the labels, decayed with age.
public struct ProfileBuilder: Sendable {
    /// Affinities halve in about `affinityDecaySeconds · ln 2` (default: 30 days ≈ three weeks).
    public var affinityDecaySeconds: Double
    public var maxAnchors: Int

    public init(affinityDecaySeconds: Double = 30 * 86_400, maxAnchors: Int = UserProfile.maxAnchors) {
        self.affinityDecaySeconds = affinityDecaySeconds
        self.maxAnchors = maxAnchors
    }

    /// `interactions`: one person's, any order. `traits`: a post's tags and uploader (nil when
    /// unknown or gone). `now`: the instant the profile is for (affinity decay).
    public func build(
        interactions: [Interaction], now: Date, traits: (Int64) -> PostTraits? = { _ in nil }
    ) -> UserProfile {
        var labels: [Int64: PostLabel] = [:]
        var signalCount = 0
        for interaction in interactions {
            if interaction.type != .impression { signalCount += 1 }
            labels[interaction.postID, default: PostLabel()].add(interaction)
        }
        var tagAffinity: [String: Double] = [:]
        var uploaderAffinity: [String: Double] = [:]
        for (postID, label) in labels where label.weight != 0 {
            guard let post = traits(postID) else { continue }
            let decayed = label.weight * exp(-max(0, now.timeIntervalSince(label.lastAt)) / affinityDecaySeconds)
            for tag in Set(post.tags) { tagAffinity[tag, default: 0] += decayed }
            if let uploader = post.uploader { uploaderAffinity[uploader, default: 0] += decayed }
        }
        let anchors = labels.filter { $0.value.weight > 0 }
            .sorted { $0.value.lastAt != $1.value.lastAt ? $0.value.lastAt > $1.value.lastAt : $0.key > $1.key }
            .prefix(maxAnchors)
            .map { UserProfile.Anchor(postID: $0.key, weight: $0.value.weight, explicit: $0.value.explicit, at: $0.value.lastAt) }
        return UserProfile(
            anchors: anchors,
            tagAffinity: tagAffinity.filter { $0.value > 0 },
            uploaderAffinity: uploaderAffinity.filter { $0.value > 0 },
            signalCount: signalCount
        )
    }

    /// Per person, the posts with a positive label, in the order they became positive: the
    /// `histories` `CoVisitation.neighbors` takes. `interactions`: everyone's, any order.
    public static func positiveHistories(_ interactions: [Interaction]) -> [[Int64]] {
        var byPerson: [Int64: [Int64: PostLabel]] = [:]
        for interaction in interactions {
            byPerson[interaction.userID, default: [:]][interaction.postID, default: PostLabel()].add(interaction)
        }
        return byPerson.keys.sorted().map { person in
            byPerson[person]!.filter { $0.value.weight > 0 }
                .sorted { $0.value.firstAt != $1.value.firstAt ? $0.value.firstAt < $1.value.firstAt : $0.key < $1.key }
                .map(\.key)
        }
    }
}

/// The running label of one (person, post).
struct PostLabel {
    var weight = 0.0
    var explicit = false
    var firstAt = Date.distantFuture
    var lastAt = Date.distantPast

    mutating func add(_ interaction: Interaction) {
        let signal = SignalWeights.weight(of: interaction)
        weight += signal
        if SignalWeights.isExplicit(interaction) { explicit = true }
        if signal != 0 {
            firstAt = min(firstAt, interaction.at)
            lastAt = max(lastAt, interaction.at)
        }
    }
}
