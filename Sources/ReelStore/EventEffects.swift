import Foundation
import ReelModels

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

    /// Folds one event's change into its post's signal row (`fold` is ReelRank's `PostSignal.add`).
    public mutating func addSignal(for event: WatchEvent, _ fold: (inout PostSignal) -> Void) {
        fold(&signals[event.postID, default: PostSignal(postID: event.postID, seenAt: event.at)])
    }

    /// A weight for a tag's or an uploader's affinity, at the event's instant.
    public mutating func addAffinity(_ kind: AffinityKind, key: String, weight: Double, at: Date) {
        affinities[AffinityKey(kind: kind, key: key), default: []].append((weight, at))
    }

    /// A weight for the post's popularity.
    public mutating func addPopularity(postID: Int64, weight: Double, at: Date) {
        popularity[postID, default: []].append((weight, at))
    }

    /// "Not interested": the post is hidden from the person, from the latest instant.
    public mutating func hidePost(_ postID: Int64, at: Date) {
        let at = at.timeIntervalSince1970
        hiddenPosts[postID] = max(hiddenPosts[postID] ?? at, at)
    }

    /// "Hide uploader": by `UploaderKey`, keeping the name as shown.
    public mutating func hideUploader(named name: String, at: Date) {
        let at = at.timeIntervalSince1970
        let key = UploaderKey.key(name)
        hiddenUploaders[key] = (name, max(hiddenUploaders[key]?.at ?? at, at))
    }
}
