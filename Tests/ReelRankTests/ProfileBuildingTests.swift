import Foundation
import ReelModels
import Testing
@testable import ReelRank

@Suite("Profile building")
struct ProfileBuildingTests {
    let t0 = Date(timeIntervalSince1970: 1_700_000_000)

    @Test func signalsFoldInteractionsAsTheTableStoresThem() {
        var signal = PostSignal(postID: 1, seenAt: t0)
        signal.add(Interaction(userID: 1, postID: 1, type: .impression, at: t0.addingTimeInterval(1)))
        #expect(signal.watchedAt == nil && signal.impressions == 1 && signal.label == 0)
        signal.add(Interaction(userID: 1, postID: 1, type: .view, at: t0.addingTimeInterval(5), watchedMs: 12_000, durationMs: 12_000))
        signal.add(Interaction(userID: 1, postID: 1, type: .skip, at: t0.addingTimeInterval(3), watchedMs: 500))
        signal.add(Interaction(userID: 1, postID: 1, type: .favorite, at: t0.addingTimeInterval(4)))
        #expect(signal.views == 1 && signal.longViews == 1 && signal.skips == 1 && signal.watchedMs == 12_500)
        #expect(signal.watchedAt == t0.addingTimeInterval(5) && signal.seenAt == t0.addingTimeInterval(5))
        #expect(signal.explicit)
        #expect(signal.label == 1 - 0.5 + 2)
        signal.add(Interaction(userID: 1, postID: 1, type: .unfavorite, at: t0.addingTimeInterval(6)))
        #expect(!signal.explicit)
    }

    @Test func theProfileKeepsRecentPositiveAnchorsAndTheStrongestTastes() {
        let signals = [
            PostSignal(postID: 1, seenAt: t0, watchedAt: t0, label: 1),
            PostSignal(postID: 2, seenAt: t0, watchedAt: t0.addingTimeInterval(10), label: 2, explicit: true),
            PostSignal(postID: 3, seenAt: t0, watchedAt: t0.addingTimeInterval(20), label: -0.5),
            PostSignal(postID: 4, seenAt: t0, watchedAt: nil, label: 0),
        ]
        let profile = UserProfile.build(
            signals: signals, tagScores: ["cats": 4, "dogs": 2, "eels": -1], uploaderScores: ["ana": 0.5], signalCount: 7
        )
        #expect(profile.anchors.map(\.postID) == [2, 1])
        #expect(profile.anchors.first?.explicit == true)
        #expect(profile.tagAffinity == ["cats": 1, "dogs": 0.5])
        #expect(profile.uploaderAffinity == ["ana": 1])
        #expect(profile.topTags == ["cats", "dogs"])
        #expect(!profile.isCold && UserProfile.build(signals: [], tagScores: [:], uploaderScores: [:], signalCount: 0).isCold)
    }

    @Test func affinitiesDecayAndAdd() {
        let first = AffinityDecay.adding(weight: 1, at: t0, to: nil, updatedAt: nil)
        #expect(first.score == 1 && first.updatedAt == t0)
        let later = t0.addingTimeInterval(AffinityDecay.decaySeconds)
        let second = AffinityDecay.adding(weight: 1, at: later, to: first.score, updatedAt: first.updatedAt)
        #expect(abs(second.score - (exp(-1) + 1)) < 1e-12 && second.updatedAt == later)
        // A late event adds its weight decayed to the stored instant.
        let late = AffinityDecay.adding(weight: 1, at: t0, to: second.score, updatedAt: second.updatedAt)
        #expect(abs(late.score - (second.score + exp(-1))) < 1e-12 && late.updatedAt == later)
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
