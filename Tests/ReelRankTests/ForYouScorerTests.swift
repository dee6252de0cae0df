import Foundation
import ReelRank
import Testing

@Suite struct ForYouScorerTests {
    let now = Date(timeIntervalSince1970: 2_000_000)
    let old = Date(timeIntervalSince1970: 1_000_000)
    var profile: UserProfile {
        UserProfile(
            anchors: [.init(postID: 1, weight: 2, explicit: true, at: now), .init(postID: 2, weight: 1, explicit: false, at: now)],
            tagAffinity: ["cats": 4, "dogs": 1], uploaderAffinity: ["ann": 3]
        )
    }

    func candidate(_ id: Int64, tags: [String] = [], uploader: String? = nil, added: Date? = nil, popularity: Double = 0,
                   neighbor: Double = 0, anchor: Int64? = nil, sources: Set<CandidateSource> = [.neighbor]) -> Candidate {
        Candidate(postID: id, uploader: uploader, tags: tags, addedAt: added ?? old, popularity: popularity,
                  neighborScore: neighbor, strongestAnchor: anchor, sources: sources)
    }

    @Test func theStrongestPartGivesTheReason() {
        let scorer = ForYouScorer()
        #expect(scorer.score(candidate(10, neighbor: 1, anchor: 1), profile: profile, now: now).reason == .liked(postID: 1))
        #expect(scorer.score(candidate(10, neighbor: 1, anchor: 2), profile: profile, now: now).reason == .watched(postID: 2))
        #expect(scorer.score(candidate(10, tags: ["dogs", "cats"]), profile: profile, now: now).reason == .tag("cats"))
        #expect(scorer.score(candidate(10, uploader: "ann"), profile: profile, now: now).reason == .uploader("ann"))
        #expect(scorer.score(candidate(10, popularity: 1, sources: [.popular]), profile: profile, now: now).reason == .popular)
        #expect(scorer.score(candidate(10, added: now.addingTimeInterval(-3_600), sources: [.fresh]), profile: profile, now: now).reason == .new)
        #expect(scorer.score(candidate(10, popularity: 1, sources: [.explore]), profile: profile, now: now).reason == .explore)
        // Nothing known about a post: shown as popular, never with an empty tag or uploader.
        #expect(scorer.score(candidate(10, tags: ["birds"], uploader: "zed"), profile: profile, now: now).reason == .popular)
    }

    @Test func affinitiesAreScaledByThePersonsStrongest() {
        let scorer = ForYouScorer()
        let cats = scorer.score(candidate(10, tags: ["cats"]), profile: profile, now: now).score
        let dogs = scorer.score(candidate(11, tags: ["dogs"]), profile: profile, now: now).score
        #expect(abs(cats - scorer.tagWeight) < 1e-12)
        // A quarter of the strongest, squared: weak tastes count much less than strong ones.
        #expect(abs(dogs - scorer.tagWeight / 16) < 1e-12)
    }

    @Test func neighboursOutrankPopularityAndTiesKeepIdOrder() {
        let ranked = ForYouScorer().rank([
            candidate(30, popularity: 1, sources: [.popular]),
            candidate(20, popularity: 0.2, neighbor: 0.9, anchor: 1),
            candidate(10, popularity: 1, sources: [.popular]),
        ], profile: profile, now: now)
        #expect(ranked.map(\.candidate.postID) == [20, 10, 30])
    }
}
