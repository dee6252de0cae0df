import Foundation
import ReelModels
import ReelRank

/// What the event ingest needs to know about a post an event names: enough to refuse the batch
/// and to spread the event's weight over the post's tags and uploader.
public struct EventPostFacts: Sendable, Equatable {
    public var status: String
    public var libraryID: Int64
    /// `UploaderKey.name`: nil when the post has neither uploader nor username.
    public var uploaderName: String?
    public var tags: [String]

    public init(status: String, libraryID: Int64, uploaderName: String?, tags: [String] = []) {
        self.status = status
        self.libraryID = libraryID
        self.uploaderName = uploaderName
        self.tags = tags
    }

    /// Events may name what the person can play: a feed post or a live story.
    public var acceptsEvents: Bool { status == PostStatus.ready.rawValue || status == PostStatus.story.rawValue }

    /// Why a batch must be refused, checked before anything is written (so a refused batch
    /// writes nothing): the first event naming a post the person may not see, or hiding the
    /// uploader of a post that has none. Nil when every event may be stored.
    public static func refusal(of events: [WatchEvent], posts: [Int64: EventPostFacts], scope: LibraryScope) -> EventBatchOutcome? {
        for (index, event) in events.enumerated() {
            guard let post = posts[event.postID], post.acceptsEvents, scope.contains(post.libraryID) else {
                return .refused(index: index, reason: "post \(event.postID) does not exist")
            }
            if event.type == .hideUploader, post.uploaderName == nil {
                return .refused(index: index, reason: "post \(event.postID) has no uploader or username to hide")
            }
        }
        return nil
    }
}

/// The effects of a batch's new events, gathered per row so each store writes every touched
/// row once: a batch of 25 views of 25 posts with 3 tags each is 25 signal upserts, ~100
/// affinity rows and 25 popularity rows, whatever the backend.
public struct EventEffects: Sendable {
    /// `user_affinities.kind`.
    public enum AffinityKind: Int, Sendable {
        case tag = 0
        case uploader = 1
    }

    public struct AffinityKey: Hashable, Sendable {
        public var kind: AffinityKind
        public var key: String
    }

    /// A weight and when it was added: decayed sums fold these in event order.
    public typealias Addition = (weight: Double, at: Date)

    /// Each `user_post_signals` row's change (ReelRank's own fold of a post's interactions).
    public private(set) var signals: [Int64: PostSignal] = [:]
    /// Weights in event order, so a decayed sum folds them as they happened.
    public private(set) var affinities: [AffinityKey: [Addition]] = [:]
    public private(set) var popularity: [Int64: [Addition]] = [:]
    public private(set) var hiddenPosts: [Int64: Double] = [:]
    /// By uploader key: the name as shown and the latest instant.
    public private(set) var hiddenUploaders: [String: (name: String, at: Double)] = [:]

    public init() {}

    public mutating func add(_ event: Interaction, post: EventPostFacts) {
        let at = event.at.timeIntervalSince1970
        let weight = SignalWeights.weight(of: event)
        signals[event.postID, default: PostSignal(postID: event.postID, seenAt: event.at)].add(event)

        if weight != 0 {
            for tag in post.tags {
                affinities[AffinityKey(kind: .tag, key: tag), default: []].append((weight, event.at))
            }
            if let name = post.uploaderName {
                affinities[AffinityKey(kind: .uploader, key: UploaderKey.key(name)), default: []].append((weight, event.at))
            }
        }
        if weight > 0 { popularity[event.postID, default: []].append((weight, event.at)) }
        switch event.type {
        case .notInterested:
            hiddenPosts[event.postID] = max(hiddenPosts[event.postID] ?? at, at)
        case .hideUploader:
            if let name = post.uploaderName {
                let key = UploaderKey.key(name)
                hiddenUploaders[key] = (name, max(hiddenUploaders[key]?.at ?? at, at))
            }
        default:
            break
        }
    }

    /// An affinity row after `additions`, folded in order onto the stored (score, instant).
    public static func affinity(stored: (score: Double, at: Date)?, adding additions: [Addition]) -> (score: Double, at: Date)? {
        var state = stored
        for addition in additions {
            state = Affinity.updated(score: state?.score, at: state?.at, adding: addition.weight, now: addition.at)
        }
        return state
    }

    /// A popularity key after `additions`, folded in order onto the stored one.
    public static func popularityKey(stored: Double?, adding additions: [Addition]) -> Double? {
        var key = stored
        for addition in additions { key = Popularity.adding(weight: addition.weight, at: addition.at, to: key) }
        return key
    }
}
