import Foundation
import ReelModels

/// Turns "this item is on screen now" into the events of docs/recommendations-api.md: an
/// `impression` when an item becomes the current one, and when it leaves, a `skip` (left within
/// 2 s) or a `view` with the time watched, the post's length and its loops. A plain value: the
/// feed session asks it on every settled move.
public struct WatchTracker: Sendable, Equatable {
    struct Showing: Sendable, Equatable {
        var postID: Int64
        var durationMs: Int?
        var since: Date
        var watchedMs: Int?
        var loops: Int?
    }

    private var showing: Showing?

    public init() {}

    /// The item whose time is being counted.
    public var currentPostID: Int64? { showing?.postID }

    /// `postID` is on screen from `now` on (nil: nothing is). Returns the leaving item's view or
    /// skip, then the new item's impression; nothing when the item did not change.
    public mutating func show(_ postID: Int64?, durationSeconds: Double?, at now: Date) -> [WatchEvent] {
        guard postID != showing?.postID else { return [] }
        var events = leave(at: now).map { [$0] } ?? []
        if let postID {
            let durationMs = durationSeconds.flatMap { $0 > 0 && $0.isFinite ? Int(($0 * 1000).rounded()) : nil }
            showing = Showing(postID: postID, durationMs: durationMs, since: now)
            events.append(WatchEvent(postID: postID, type: .impression, at: now))
        }
        return events
    }

    /// What the player measured for the current item: the time it actually played (counting
    /// every loop) and how often it looped. Better than time on screen, which counts stalls
    /// and pauses; without a report, time on screen is what the view says.
    public mutating func playback(watchedMs: Int, loops: Int) {
        showing?.watchedMs = max(0, watchedMs)
        showing?.loops = max(0, loops)
    }

    /// The current item leaves the screen (a swipe, the app going away): its view or skip.
    public mutating func leave(at now: Date) -> WatchEvent? {
        guard let item = showing else { return nil }
        showing = nil
        let onScreen = max(0, Int((now.timeIntervalSince(item.since) * 1000).rounded()))
        let watched = min(item.watchedMs ?? onScreen, WatchEvent.maxMilliseconds)
        if WatchTracker.isSkip(watchedMs: watched) {
            return WatchEvent(postID: item.postID, type: .skip, at: now, watchedMs: watched)
        }
        // An image has no length: it counts as watched once for as long as it was looked at.
        let duration = min(max(1, item.durationMs ?? watched), WatchEvent.maxMilliseconds)
        let counted = min(watched, duration * WatchEvent.maxWatchRatio)
        // A watch of exactly the length is one play, not a loop.
        let loops = item.loops ?? max(0, (counted - 1) / duration)
        return WatchEvent(
            postID: item.postID, type: .view, at: now, watchedMs: counted, durationMs: duration, loops: min(loops, WatchEvent.maxLoops)
        )
    }

    /// Left within 2 s (the contract's skip, KuaiRand's too).
    public static func isSkip(watchedMs: Int) -> Bool { watchedMs < WatchEvent.skipMilliseconds }
}
