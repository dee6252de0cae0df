import Foundation
import ReelRank
import Testing

@Suite struct WatchLabelTests {
    @Test func aShortPostIsALongViewOnlyWhenWatchedToTheEnd() {
        #expect(WatchLabel.isLongView(watchedMs: 12_000, durationMs: 12_000))
        #expect(!WatchLabel.isLongView(watchedMs: 9_000, durationMs: 12_000))
    }

    @Test func aLongPostIsALongViewAfterEighteenSeconds() {
        #expect(WatchLabel.isLongView(watchedMs: 18_000, durationMs: 90_000))
        #expect(!WatchLabel.isLongView(watchedMs: 17_000, durationMs: 90_000))
    }

    @Test func popularityKeysOrderLikeDecayedScores() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let old = Popularity.adding(weight: 3, at: now.addingTimeInterval(-14 * 86_400), to: nil)
        let recent = Popularity.adding(weight: 1, at: now, to: nil)
        #expect(recent > old)
        #expect(abs(Popularity.score(key: recent, now: now) - 1) < 1e-9)
        let both = Popularity.adding(weight: 1, at: now, to: recent)
        #expect(abs(Popularity.score(key: both, now: now) - 2) < 1e-9)
    }
}
