import Foundation
import ReelKit
import ReelModels
import Testing

@Suite struct WatchTrackerTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    func summary(_ events: [WatchEvent]) -> [String] {
        events.map { event in
            var text = "\(event.type) \(event.postID)"
            if let watched = event.watchedMs { text += " watched \(watched)" }
            if let duration = event.durationMs { text += " of \(duration)" }
            if let loops = event.loops { text += " loops \(loops)" }
            return text
        }
    }

    @Test func anItemShownThenLeftIsAnImpressionThenAViewOrASkip() {
        var tracker = WatchTracker()
        #expect(summary(tracker.show(1, durationSeconds: 12, at: start)) == ["impression 1"])
        #expect(tracker.show(1, durationSeconds: 12, at: start.addingTimeInterval(3)).isEmpty, "the same item again is not news")
        // 12 s on screen of a 12 s post: watched to the end, not looped.
        #expect(summary(tracker.show(2, durationSeconds: 8, at: start.addingTimeInterval(12))) == ["view 1 watched 12000 of 12000 loops 0", "impression 2"])
        // Left after 1.9 s: a skip carries only the time watched.
        #expect(summary(tracker.show(3, durationSeconds: 5, at: start.addingTimeInterval(13.9))) == ["skip 2 watched 1900", "impression 3"])
        // 16 s of a 5 s post: three full plays and a bit, i.e. looped three times.
        #expect(summary(tracker.show(nil, durationSeconds: nil, at: start.addingTimeInterval(29.9))) == ["view 3 watched 16000 of 5000 loops 3"])
        #expect(tracker.currentPostID == nil)
    }

    @Test func thePlayersOwnMeasureWinsOverTimeOnScreen() {
        var tracker = WatchTracker()
        _ = tracker.show(7, durationSeconds: 10, at: start)
        // A minute on screen, but the player stalled: it says 9 s played.
        tracker.playback(watchedMs: 9000, loops: 0)
        #expect(summary([tracker.leave(at: start.addingTimeInterval(60))].compactMap { $0 }) == ["view 7 watched 9000 of 10000 loops 0"])
        _ = tracker.show(8, durationSeconds: 10, at: start)
        tracker.playback(watchedMs: 1500, loops: 0)
        #expect(summary([tracker.leave(at: start.addingTimeInterval(60))].compactMap { $0 }) == ["skip 8 watched 1500"])
    }

    @Test func viewsStayWithinTheServersBounds() {
        var tracker = WatchTracker()
        // Left open on a 2 s post for three hours: the ratio is capped at 50.
        _ = tracker.show(1, durationSeconds: 2, at: start)
        #expect(summary([tracker.leave(at: start.addingTimeInterval(3 * 3600))].compactMap { $0 }) == ["view 1 watched 100000 of 2000 loops 49"])
        // An image has no length: it counts as watched once, for as long as it was looked at.
        _ = tracker.show(2, durationSeconds: nil, at: start)
        #expect(summary([tracker.leave(at: start.addingTimeInterval(4))].compactMap { $0 }) == ["view 2 watched 4000 of 4000 loops 0"])
        #expect(tracker.leave(at: start) == nil, "nothing on screen")
    }
}
