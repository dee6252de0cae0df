import Foundation
import ReelModels

/// Where a candidate came from (a candidate may come from several).
public enum CandidateSource: String, Sendable, CaseIterable {
    case neighbor
    case tag
    case uploader
    case fresh
    case popular
    case explore
}

/// A post that may be served, with what the scorer needs to know about it.
public struct Candidate: Sendable, Equatable {
    public var postID: Int64
    /// Uploader key (lowercased, trimmed `uploader`, else `username`); nil when neither.
    public var uploader: String?
    public var tags: [String]
    public var addedAt: Date
    public var durationSeconds: Double?
    /// Decayed popularity normalised to 0…1 within the candidate set's library.
    public var popularity: Double
    /// Summed neighbour score from the person's anchors, and the anchor that contributed most.
    public var neighborScore: Double
    public var strongestAnchor: Int64?
    public var sources: Set<CandidateSource>

    public init(
        postID: Int64, uploader: String?, tags: [String], addedAt: Date, durationSeconds: Double? = nil,
        popularity: Double = 0, neighborScore: Double = 0, strongestAnchor: Int64? = nil, sources: Set<CandidateSource>
    ) {
        self.postID = postID
        self.uploader = uploader
        self.tags = tags
        self.addedAt = addedAt
        self.durationSeconds = durationSeconds
        self.popularity = popularity
        self.neighborScore = neighborScore
        self.strongestAnchor = strongestAnchor
        self.sources = sources
    }
}

/// Why an item was chosen; the server turns it into the `reason` sentence.
public enum Reason: Sendable, Equatable {
    case liked(postID: Int64)
    case watched(postID: Int64)
    case tag(String)
    case uploader(String)
    case popular
    case new
    case explore

    public var kind: ReasonKind {
        switch self {
        case .liked: .liked
        case .watched: .watched
        case .tag: .tag
        case .uploader: .uploader
        case .popular: .popular
        case .new: .new
        case .explore: .explore
        }
    }
}

/// A candidate with its score and reason, as the blender receives it.
public struct ScoredCandidate: Sendable, Equatable {
    public var candidate: Candidate
    public var score: Double
    public var reason: Reason

    public init(candidate: Candidate, score: Double, reason: Reason) {
        self.candidate = candidate
        self.score = score
        self.reason = reason
    }
}
