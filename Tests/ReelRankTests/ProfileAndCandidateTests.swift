import Foundation
import ReelModels
import ReelRank
import Testing

@Suite struct ProfileAndCandidateTests {
    let now = Date(timeIntervalSince1970: 2_000_000)

    func interaction(_ post: Int64, _ type: EventType, minutesAgo: Double, watched: Int? = nil, duration: Int? = nil) -> WatchEvent {
        WatchEvent(postID: post, type: type, at: now.addingTimeInterval(-minutesAgo * 60), watchedMs: watched, durationMs: duration)
    }

    @Test func anchorsArePositivePostsNewestFirstWithTheirKind() {
        let profile = ProfileBuilder().build(events: [
            interaction(1, .view, minutesAgo: 30, watched: 12_000, duration: 12_000),
            interaction(2, .like, minutesAgo: 10),
            interaction(3, .view, minutesAgo: 5, watched: 12_000, duration: 12_000),
            interaction(3, .notInterested, minutesAgo: 4),
            interaction(4, .skip, minutesAgo: 3, watched: 500),
            interaction(5, .impression, minutesAgo: 1),
        ], now: now)
        #expect(profile.anchors.map(\.postID) == [2, 1])
        #expect(profile.anchors.map(\.explicit) == [true, false])
        #expect(profile.anchors.map(\.weight) == [2, 1])
        #expect(profile.signalCount == 5)
    }

    @Test func affinitiesFollowTheLabelsOfTaggedPosts() throws {
        let traits: [Int64: PostTraits] = [
            1: PostTraits(tags: ["cats", "funny"], uploader: "ann"),
            2: PostTraits(tags: ["cats"], uploader: "bob"),
            3: PostTraits(tags: ["news"], uploader: "bob"),
        ]
        let profile = ProfileBuilder().build(events: [
            interaction(1, .like, minutesAgo: 1),
            interaction(2, .view, minutesAgo: 1, watched: 20_000, duration: 20_000),
            interaction(3, .notInterested, minutesAgo: 1),
        ], now: now) { traits[$0] }
        // cats: like (2) + long view (1); funny: like (2); scaled so the strongest is 1.
        #expect(try #require(profile.tagAffinity["cats"]) == 1)
        #expect(abs(try #require(profile.tagAffinity["funny"]) - 2.0 / 3) < 1e-6)
        #expect(profile.tagAffinity["news"] == nil) // negative affinities are not kept
        #expect(profile.uploaderAffinity == ["ann": 1])
        #expect(profile.uploaderAffinity["bob"] == nil) // 1 − 4 < 0
    }

    @Test func neighbourScoresFavourRecentAnchorsAndNameTheStrongest() throws {
        let profile = UserProfile(anchors: [
            .init(postID: 10, weight: 1, explicit: true, at: now),
            .init(postID: 11, weight: 1, explicit: false, at: now.addingTimeInterval(-60)),
        ] + (12...19).map { .init(postID: $0, weight: 1, explicit: false, at: now.addingTimeInterval(-Double($0) * 60)) })
        let lists: [Int64: [Neighbor]] = [
            10: [Neighbor(postID: 100, score: 0.5), Neighbor(postID: 102, score: 0.2)],
            18: [Neighbor(postID: 101, score: 0.5), Neighbor(postID: 102, score: 0.3), Neighbor(postID: 103, score: 0.9)],
        ]
        let candidates = NeighborCandidates(anchorHalfLife: 8)
        let scores = candidates.scores(profile: profile, exclude: [103]) { lists[$0] ?? [] }
        #expect(Set(scores.keys) == [100, 101, 102])
        // Sums over (the best sum + evidenceScale): the best is 0.5, so it scores 0.5 / 1.5.
        let scale = 0.5 + candidates.evidenceScale
        #expect(abs(try #require(scores[100]).score - 0.5 / scale) < 1e-12)
        #expect(abs(try #require(scores[101]).score - 0.25 / scale) < 1e-12) // the 9th newest anchor counts half
        let shared = try #require(scores[102])
        #expect(abs(shared.score - (0.2 + 0.5 * 0.3) / scale) < 1e-12)
        #expect(shared.strongestAnchor == 10) // 0.2 > 0.5 · 0.3
    }
}
