import Foundation
import ReelModels

/// Short-video labels (KuaiRand's definitions): a *long view* is a complete watch of a post of at
/// most 18 s, or at least 18 s watched of a longer one; a *skip* is leaving within 2 s. Watch
/// time is judged against the post's length, so long posts do not win by length alone.
public enum WatchLabel {
    public static let longViewMilliseconds = 18_000
    public static let skipMilliseconds = 2_000

    public static func isLongView(watchedMs: Int, durationMs: Int) -> Bool {
        guard durationMs > 0 else { return false }
        if durationMs <= longViewMilliseconds { return watchedMs >= durationMs - 250 }
        return watchedMs >= longViewMilliseconds
    }

    public static func isSkip(watchedMs: Int) -> Bool {
        watchedMs < skipMilliseconds
    }
}

/// One interaction as the ranking code sees it, whether it came from `POST /api/v1/events`
/// or from an offline log (MovieLens ratings are `rating` interactions).
public struct Interaction: Sendable, Equatable {
    public var userID: Int64
    public var postID: Int64
    public var type: EventType
    public var at: Date
    public var watchedMs: Int?
    public var durationMs: Int?
    public var loops: Int?
    public var value: Int?

    public init(
        userID: Int64, postID: Int64, type: EventType, at: Date,
        watchedMs: Int? = nil, durationMs: Int? = nil, loops: Int? = nil, value: Int? = nil
    ) {
        self.userID = userID
        self.postID = postID
        self.type = type
        self.at = at
        self.watchedMs = watchedMs
        self.durationMs = durationMs
        self.loops = loops
        self.value = value
    }
}
