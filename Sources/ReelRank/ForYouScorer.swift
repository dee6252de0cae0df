import Foundation

/// The scoring stage: one number per candidate from the person's profile, and the reason the
/// candidate would be shown. (Baseline body; ReelRank's owner tunes the weights on eval.)
public struct ForYouScorer: Sendable {
    public var neighborWeight = 1.0
    public var tagWeight = 0.3
    public var uploaderWeight = 0.3
    public var popularityWeight = 0.2
    /// Posts newer than this get the "new" boost.
    public var freshSeconds: Double = 3 * 86_400
    public var freshWeight = 0.1

    public init() {}

    public func score(_ candidate: Candidate, profile: UserProfile, now: Date) -> ScoredCandidate {
        let tag = candidate.tags.map { profile.tagAffinity[$0] ?? 0 }.max() ?? 0
        let uploader = candidate.uploader.flatMap { profile.uploaderAffinity[$0] } ?? 0
        let fresh = now.timeIntervalSince(candidate.addedAt) < freshSeconds ? 1.0 : 0
        let parts: [(Double, Reason)] = [
            (neighborWeight * candidate.neighborScore, anchorReason(candidate, profile: profile)),
            (tagWeight * tag, .tag(candidate.tags.max { (profile.tagAffinity[$0] ?? 0) < (profile.tagAffinity[$1] ?? 0) } ?? "")),
            (uploaderWeight * uploader, .uploader(candidate.uploader ?? "")),
            (popularityWeight * candidate.popularity, .popular),
            (freshWeight * fresh, .new),
        ]
        let total = parts.reduce(0) { $0 + $1.0 }
        let strongest = parts.max { $0.0 < $1.0 }
        let reason = (strongest?.0 ?? 0) > 0 ? strongest!.1 : .popular
        return ScoredCandidate(candidate: candidate, score: total, reason: reason)
    }

    private func anchorReason(_ candidate: Candidate, profile: UserProfile) -> Reason {
        guard let anchorID = candidate.strongestAnchor,
              let anchor = profile.anchors.first(where: { $0.postID == anchorID }) else { return .popular }
        return anchor.explicit ? .liked(postID: anchorID) : .watched(postID: anchorID)
    }
}
