import Foundation
import ReelModels
import Testing
@testable import ReelRank

@Suite("Profile building")
struct ProfileBuildingTests {
    let t0 = Date(timeIntervalSince1970: 1_700_000_000)

    @Test func signalsFoldInteractionsAsTheTableStoresThem() {
        var signal = PostSignal(postID: 1, seenAt: t0)
        signal.add(WatchEvent(postID: 1, type: .impression, at: t0.addingTimeInterval(1)))
        #expect(signal.watchedAt == nil && signal.impressions == 1 && signal.label == 0)
        signal.add(WatchEvent(postID: 1, type: .view, at: t0.addingTimeInterval(5), watchedMs: 12_000, durationMs: 12_000))
        signal.add(WatchEvent(postID: 1, type: .skip, at: t0.addingTimeInterval(3), watchedMs: 500))
        signal.add(WatchEvent(postID: 1, type: .favorite, at: t0.addingTimeInterval(4)))
        #expect(signal.views == 1 && signal.longViews == 1 && signal.skips == 1 && signal.watchedMs == 12_500)
        #expect(signal.watchedAt == t0.addingTimeInterval(5) && signal.seenAt == t0.addingTimeInterval(5))
        #expect(signal.explicit)
        #expect(signal.label == 1 - 0.5 + 2)
        signal.add(WatchEvent(postID: 1, type: .unfavorite, at: t0.addingTimeInterval(6)))
        #expect(signal.label == 1 - 0.5 + 2 - 2 && signal.watchedAt == t0.addingTimeInterval(6))
    }

    @Test func theProfileKeepsRecentPositiveAnchorsAndTheStrongestTastes() {
        let signals = [
            PostSignal(postID: 1, seenAt: t0, watchedAt: t0, label: 1),
            PostSignal(postID: 2, seenAt: t0, watchedAt: t0.addingTimeInterval(10), label: 2, explicit: true),
            PostSignal(postID: 3, seenAt: t0, watchedAt: t0.addingTimeInterval(20), label: -0.5),
            PostSignal(postID: 4, seenAt: t0, watchedAt: nil, label: 0),
        ]
        let profile = ProfileBuilder().build(
            signals: signals, tagScores: ["cats": 4, "dogs": 2, "eels": -1], uploaderScores: ["ana": 0.5], signalCount: 7
        )
        #expect(profile.anchors.map(\.postID) == [2, 1])
        #expect(profile.anchors.first?.explicit == true)
        // Scaled so the strongest is 1; negative ones left out.
        #expect(profile.tagAffinity == ["cats": 1, "dogs": 0.5])
        #expect(profile.uploaderAffinity == ["ana": 1])
        #expect(profile.topTags == ["cats", "dogs"])
        #expect(profile.signalCount == 7)
        #expect(!profile.isCold && ProfileBuilder().build(signals: [], tagScores: [:], uploaderScores: [:], signalCount: 0).isCold)
    }

    @Test func storedAggregatesGiveTheProfileTheInteractionsGive() {
        // Folding a person's interactions into signals (as the ingest stores them) and building
        // from those gives the anchors `build(events:)` gives.
        let interactions = [
            WatchEvent(postID: 10, type: .view, at: t0, watchedMs: 9_000, durationMs: 9_000),
            WatchEvent(postID: 11, type: .skip, at: t0.addingTimeInterval(5), watchedMs: 300),
            WatchEvent(postID: 12, type: .favorite, at: t0.addingTimeInterval(9)),
            WatchEvent(postID: 10, type: .share, at: t0.addingTimeInterval(20)),
            WatchEvent(postID: 13, type: .impression, at: t0.addingTimeInterval(30)),
        ]
        var signals: [Int64: PostSignal] = [:]
        for interaction in interactions {
            signals[interaction.postID, default: PostSignal(postID: interaction.postID, seenAt: interaction.at)].add(interaction)
        }
        let stored = ProfileBuilder().build(signals: Array(signals.values), tagScores: [:], uploaderScores: [:], signalCount: 4)
        let direct = ProfileBuilder().build(events: interactions, now: t0.addingTimeInterval(60))
        #expect(stored.anchors == direct.anchors)
        #expect(stored.signalCount == direct.signalCount)
    }

    @Test func affinitiesDecayAndAdd() {
        // Built from raw interactions, a tag's affinity is the stored row the ingest would keep:
        // each weight added to the score decayed to its instant, read back decayed to `now`.
        let t0 = Date(timeIntervalSince1970: 1_700_000_000)
        let like = WatchEvent(postID: 1, type: .like, at: t0)
        let view = WatchEvent(postID: 2, type: .view, at: t0.addingTimeInterval(10 * 86_400), watchedMs: 20_000, durationMs: 20_000)
        let now = t0.addingTimeInterval(20 * 86_400)
        let traits: [Int64: PostTraits] = [1: PostTraits(tags: ["cats", "dogs"]), 2: PostTraits(tags: ["cats"])]
        let profile = ProfileBuilder().build(events: [view, like], now: now) { traits[$0] }
        let dogs = Affinity.updated(score: nil, at: nil, adding: SignalWeights.weight(of: like), now: like.at)
        let cats = Affinity.updated(score: dogs.score, at: dogs.at, adding: SignalWeights.weight(of: view), now: view.at)
        let ratio = Affinity.score(dogs.score, at: dogs.at, now: now) / Affinity.score(cats.score, at: cats.at, now: now)
        #expect(profile.tagAffinity["cats"] == 1)
        #expect(abs((profile.tagAffinity["dogs"] ?? 0) - ratio) < 1e-9)
        // The like faded over the ten days before the view: less than its weight over the sum.
        #expect(ratio < SignalWeights.weight(of: like) / (SignalWeights.weight(of: like) + SignalWeights.weight(of: view)))
    }

    @Test func uploaderKeysAreTrimmedLowercasedAndFallBackToTheUsername() {
        #expect(UploaderKey.key(uploader: "  Émile Zola ", username: "ez") == "émile zola")
        #expect(UploaderKey.key(uploader: "   ", username: " EZ ") == "ez")
        #expect(UploaderKey.key(uploader: nil, username: nil) == nil)
        #expect(UploaderKey.name(uploader: nil, username: " EZ ") == "EZ")
    }

    @Test func reasonsReadAsTheContractSpellsThem() {
        let long = ReasonText.title(description: "  \nA very long first line that goes on and on past forty\nmore", shortcode: "sc", folderName: "f")
        #expect(long == "A very long first line that goes on and…" && long.count == 40)
        #expect(ReasonText.title(description: nil, shortcode: "CxYz", folderName: "f") == "CxYz")
        #expect(ReasonText.sentence(.liked(postID: 1), anchorTitle: "Hi", uploaderName: nil) == "because you liked “Hi”")
        #expect(ReasonText.sentence(.watched(postID: 1), anchorTitle: "Hi", uploaderName: nil) == "because you watched “Hi”")
        #expect(ReasonText.sentence(.tag("cats"), anchorTitle: nil, uploaderName: nil) == "because you like #cats")
        #expect(ReasonText.sentence(.uploader("ana"), anchorTitle: nil, uploaderName: "Ana") == "because you watch Ana")
        #expect(ReasonText.sentence(.popular, anchorTitle: nil, uploaderName: nil) == "popular")
        #expect(ReasonText.sentence(.new, anchorTitle: nil, uploaderName: nil) == "new")
        #expect(ReasonText.sentence(.explore, anchorTitle: nil, uploaderName: nil) == "explore")
    }
}
