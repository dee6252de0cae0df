import Foundation

/// The scoring stage: one number per candidate from the person's profile, and the reason the
/// candidate would be shown.
///
/// Every part is on a 0…1 scale before its weight: the neighbour score is normalised by the
/// candidate stage, popularity within the candidate set, and tag/uploader affinities by the
/// person's strongest one — so a heavy user's large affinity sums do not drown the neighbours.
/// The neighbour : popularity ratio was tuned with `reelhouse eval` on MovieLens-100k
/// (neighbours carry the ranking; a quarter to a fifth of popularity breaks their ties towards
/// what is watched now: 0.1–0.3 of the neighbour weight all measure within .005 NDCG).
/// MovieLens has no tags, uploaders or upload dates; those weights were set against the feed
/// simulator (scripts/simulate_feed.py): tags as strong as neighbours (a young library has
/// few co-visits, and tag items earned the most long views there), uploaders and freshness
/// only breaking ties. The sum is then multiplied by the length prior's lift (the long-view
/// label depends on length; measured, see `LengthPrior`), by tag fatigue and by the avoidance
/// of rejected tags: with them, For You earns 1.5–1.8× shuffle's long views in the simulator
/// (small runs; 1.84× in the large one), against 1.1–1.46× without them, while
/// its mean post length stays about half the library's (squaring the lift gave 1.8× and a
/// feed of the shortest clips, so it is not squared).
public struct ForYouScorer: Sendable {
    public var neighborWeight = 0.4
    public var tagWeight = 0.4
    /// Low: in the simulator, items chosen for their uploader had shuffle's long-view rate
    /// (an uploader's score mostly repeats its tags'), so it only breaks ties.
    public var uploaderWeight = 0.1
    public var popularityWeight = 0.1
    /// Posts newer than this get the "new" boost.
    public var freshSeconds: Double = 3 * 86_400
    public var freshWeight = 0.1
    /// What length does to the chance of a long view here (measured; neutral until there are
    /// judged views). The relevance above is multiplied by its lift raised to this power.
    public var lengthPrior = LengthPrior.neutral
    public var lengthExponent = 1.0
    /// Short-term fatigue: a candidate's score is multiplied by this for each recent post that
    /// carried its tags (`UserProfile.recentTagExposure`, averaged over its tags), whichever
    /// source found it — a neighbour of what was just watched bores like a post of its tag.
    public var tagFatigue = 0.95
    /// A candidate carrying a tag the person rejected (`UserProfile.avoidedTags`) keeps this
    /// share of its score, and of its weight in exploration.
    public var avoidedTagFactor = 0.2
    /// The share of the library's posts each tag is on (lowercased names). A tag on at least
    /// `commonTagShare` of them still scores, but is never the reason given: "because you like
    /// #demo" on every item explains nothing.
    public var tagShares: [String: Double] = [:]
    public var commonTagShare = 0.5
    /// The tags of the profile's explicit anchors (liked, favorited, rated well), by post id. A
    /// tag reason then names the newest of them that carries the tag: "because you liked “…”"
    /// says where the affinity came from. Without it a person alone on a server never read that
    /// reason: their co-visitation neighbours are only posts they watched themselves, all
    /// already seen, so the neighbour part of a servable post is always 0 (issue 29). Reasons
    /// only: the score is unchanged.
    public var anchorTags: [Int64: [String]] = [:]

    public init(lengthPrior: LengthPrior = .neutral) {
        self.lengthPrior = lengthPrior
    }

    public func score(_ candidate: Candidate, profile: UserProfile, now: Date) -> ScoredCandidate {
        let topTag = profile.tagAffinity.values.max() ?? 0
        let topUploader = profile.uploaderAffinity.values.max() ?? 0
        let bestTag = candidate.tags
            .map { (tag: $0, affinity: profile.tagAffinity[$0] ?? 0) }
            .max { $0.affinity != $1.affinity ? $0.affinity < $1.affinity : $0.tag > $1.tag }
        // Squared: a tag at half the strongest one's affinity counts a quarter, so the weak
        // positive tags a few lucky views give a profile do not crowd out the ones it shows.
        let tagShare = topTag > 0 ? max(0, bestTag?.affinity ?? 0) / topTag : 0
        let tag = tagShare * tagShare
        let uploaderAffinity = candidate.uploader.flatMap { profile.uploaderAffinity[$0] } ?? 0
        let uploader = topUploader > 0 ? max(0, uploaderAffinity) / topUploader : 0
        let age = now.timeIntervalSince(candidate.addedAt)
        let fresh = age >= 0 && age < freshSeconds ? 1.0 : 0

        var parts: [(value: Double, reason: Reason)] = [
            (neighborWeight * candidate.neighborScore, anchorReason(candidate, profile: profile)),
            (popularityWeight * candidate.popularity, .popular),
            (freshWeight * fresh, .new),
        ]
        if let name = candidate.uploader, uploader > 0 { parts.append((uploaderWeight * uploader, .uploader(name))) }
        let relevance = parts.reduce(0) { $0 + $1.value } + tagWeight * tag
        // The tag named as the reason is the best one that says something about this post.
        let telling = candidate.tags.filter { (tagShares[$0.lowercased()] ?? 0) < commonTagShare }
            .map { (tag: $0, affinity: profile.tagAffinity[$0] ?? 0) }
            .max { $0.affinity != $1.affinity ? $0.affinity < $1.affinity : $0.tag > $1.tag }
        if let telling, topTag > 0, telling.affinity > 0 {
            let share = telling.affinity / topTag
            parts.append((tagWeight * share * share, .tag(telling.tag)))
        }

        let total = relevance * pow(lengthPrior.lift(seconds: candidate.durationSeconds), lengthExponent)
            * pow(tagFatigue, exposure(of: candidate, profile: profile))
            * avoidance(of: candidate, profile: profile)
        // The first strongest part wins a tie, so a neighbour beats popularity at equal weight.
        var strongest = parts[0]
        for part in parts.dropFirst() where part.value > strongest.value { strongest = part }
        let reason: Reason
        if candidate.sources == [.explore] {
            reason = .explore
        } else if strongest.value > 0 {
            reason = likedAnchor(for: strongest.reason, candidate: candidate, profile: profile) ?? strongest.reason
        } else {
            reason = fresh > 0 ? .new : .popular
        }
        return ScoredCandidate(candidate: candidate, score: total, reason: reason)
    }

    /// Scores and orders candidates, best first (ties: lower post id first, so pages are stable).
    public func rank(_ candidates: [Candidate], profile: UserProfile, now: Date) -> [ScoredCandidate] {
        candidates.map { score($0, profile: profile, now: now) }
            .sorted { $0.score != $1.score ? $0.score > $1.score : $0.candidate.postID < $1.candidate.postID }
    }

    /// Exploration's order: the posts stay outside the profile (their tags and uploaders are
    /// not why they are shown) and their order random, but away from tags the person rejected
    /// and tilted towards the lengths long-viewed more often here: a weighted shuffle (Efraimidis–Spirakis, key u^(1/w)) with
    /// weight = the length lift, so a post twice as likely to be long-viewed is about twice as
    /// likely to come first — never a plain "shortest first".
    public func rankExplore(
        _ candidates: [Candidate], profile: UserProfile = .empty, using generator: inout some RandomNumberGenerator
    ) -> [ScoredCandidate] {
        candidates
            .map { candidate -> (key: Double, scored: ScoredCandidate) in
                let weight = pow(lengthPrior.lift(seconds: candidate.durationSeconds), lengthExponent)
                    * avoidance(of: candidate, profile: profile)
                let key = pow(Double.random(in: Double.ulpOfOne..<1, using: &generator), 1 / weight)
                return (key, ScoredCandidate(candidate: candidate, score: weight, reason: .explore))
            }
            .sorted { $0.key > $1.key }
            .map(\.scored)
    }

    /// The mean recent exposure of the candidate's tags (0 without tags).
    private func exposure(of candidate: Candidate, profile: UserProfile) -> Double {
        guard !candidate.tags.isEmpty, !profile.recentTagExposure.isEmpty else { return 0 }
        let total = candidate.tags.reduce(0) { $0 + (profile.recentTagExposure[$1] ?? 0) }
        return Double(total) / Double(candidate.tags.count)
    }

    private func avoidance(of candidate: Candidate, profile: UserProfile) -> Double {
        profile.avoidedTags.isEmpty || !candidate.tags.contains(where: { profile.avoidedTags.contains($0.lowercased()) })
            ? 1 : avoidedTagFactor
    }

    /// `.liked` naming the newest explicit anchor (not the candidate itself) that carries the
    /// tag of a tag reason; nil for other reasons or when no liked post carries it.
    private func likedAnchor(for reason: Reason, candidate: Candidate, profile: UserProfile) -> Reason? {
        guard case .tag(let tag) = reason, !anchorTags.isEmpty else { return nil }
        let wanted = tag.lowercased()
        return profile.anchors.first { anchor in
            anchor.explicit && anchor.postID != candidate.postID
                && (anchorTags[anchor.postID] ?? []).contains { $0.lowercased() == wanted }
        }.map { .liked(postID: $0.postID) }
    }

    private func anchorReason(_ candidate: Candidate, profile: UserProfile) -> Reason {
        guard let anchorID = candidate.strongestAnchor,
              let anchor = profile.anchors.first(where: { $0.postID == anchorID }) else { return .popular }
        return anchor.explicit ? .liked(postID: anchorID) : .watched(postID: anchorID)
    }
}
