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

    @Test func aTagOnNearlyEveryPostScoresButIsNeverTheReason() {
        var scorer = ForYouScorer()
        scorer.tagShares = ["cats": 0.97, "dogs": 0.1]
        let both = scorer.score(candidate(10, tags: ["Cats", "dogs"]), profile: profile, now: now)
        #expect(both.reason == .tag("dogs"), "the tag that says something about this post")
        let onlyCommon = scorer.score(candidate(11, tags: ["cats"], added: now.addingTimeInterval(-3_600), sources: [.fresh]), profile: profile, now: now)
        #expect(onlyCommon.reason == .new)
        // The common tag still counts in the score: the ranking does not change.
        #expect(abs(scorer.score(candidate(12, tags: ["cats"]), profile: profile, now: now).score - scorer.tagWeight) < 1e-12)
        scorer.tagShares = [:]
        #expect(scorer.score(candidate(10, tags: ["cats", "dogs"]), profile: profile, now: now).reason == .tag("cats"))
    }

    @Test func aTagReasonNamesTheLikedPostThatCarriesTheTag() {
        // Issue 29: alone on a server, a person's co-visitation neighbours are posts they have
        // seen, so a servable post's reason is its tag; the liked post behind the tag is named.
        var scorer = ForYouScorer()
        scorer.anchorTags = [1: ["Cats"], 2: ["dogs"]]
        let plain = ForYouScorer().score(candidate(10, tags: ["cats"]), profile: profile, now: now)
        let named = scorer.score(candidate(10, tags: ["cats"]), profile: profile, now: now)
        #expect(named.reason == .liked(postID: 1))
        #expect(named.score == plain.score, "reasons only: the ranking does not change")
        // Post 2 was only watched: its tag stays the reason, as does a tag no liked post carries.
        #expect(scorer.score(candidate(11, tags: ["dogs"]), profile: profile, now: now).reason == .tag("dogs"))
        scorer.anchorTags = [1: ["birds"]]
        #expect(scorer.score(candidate(12, tags: ["cats"]), profile: profile, now: now).reason == .tag("cats"))
        // A recycled liked post is not shown "because you liked" itself.
        scorer.anchorTags = [1: ["cats"]]
        #expect(scorer.score(candidate(1, tags: ["cats"]), profile: profile, now: now).reason == .tag("cats"))
        // Other reasons are left alone.
        #expect(scorer.score(candidate(13, uploader: "ann"), profile: profile, now: now).reason == .uploader("ann"))
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

@Suite struct LengthPriorTests {
    @Test func bucketsFollowTheEdgesInclusively() {
        #expect(LengthPrior.bucket(seconds: 6) == 0)
        #expect(LengthPrior.bucket(seconds: 6.01) == 1)
        #expect(LengthPrior.bucket(seconds: 18) == 3)
        #expect(LengthPrior.bucket(seconds: 500) == LengthPrior.edges.count)
    }

    @Test func liftIsTheBucketsRateOverTheOverallRateShrunkAndBounded() {
        var buckets = Array(repeating: LengthPrior.Bucket(judged: 0, longViews: 0), count: LengthPrior.bucketCount)
        buckets[0] = .init(judged: 1_000, longViews: 600)   // short clips: 60 %
        buckets[5] = .init(judged: 1_000, longViews: 200)   // 30–60 s: 20 %
        buckets[6] = .init(judged: 2, longViews: 2)         // two lucky views of a 90 s post
        let prior = LengthPrior(buckets: buckets)
        let overall = 802.0 / 2_002
        let shortRate = (600 + LengthPrior.priorWeight * overall) / (1_000 + LengthPrior.priorWeight)
        #expect(abs(prior.lift(seconds: 5) - shortRate / overall) < 1e-12)
        #expect(prior.lift(seconds: 45) < 1)
        // Two views say little: shrunk most of the way back to the overall rate.
        #expect(prior.lift(seconds: 90) > 1 && prior.lift(seconds: 90) < 1.1)
        // No evidence for a bucket, no length, or no evidence at all: neutral.
        #expect(abs(prior.lift(seconds: 15) - 1) < 1e-12)
        #expect(prior.lift(seconds: nil) == 1)
        #expect(LengthPrior.neutral.lift(seconds: 5) == 1)
        let extreme = LengthPrior(buckets: [.init(judged: 100_000, longViews: 100_000), .init(judged: 10_000_000, longViews: 1)])
        #expect(extreme.lift(seconds: 3) == LengthPrior.liftRange.upperBound)
    }
}

@Suite struct ForYouScorerShortTermTests {
    let now = Date(timeIntervalSince1970: 2_000_000)
    var prior: LengthPrior {
        var buckets = Array(repeating: LengthPrior.Bucket(judged: 500, longViews: 100), count: LengthPrior.bucketCount)
        buckets[0] = .init(judged: 500, longViews: 300)
        return LengthPrior(buckets: buckets)
    }

    func candidate(_ id: Int64, tags: [String], seconds: Double, sources: Set<CandidateSource> = [.tag]) -> Candidate {
        Candidate(postID: id, uploader: nil, tags: tags, addedAt: .distantPast, durationSeconds: seconds, sources: sources)
    }

    @Test func atEqualRelevanceALengthLongViewedMoreOftenRanksFirst() {
        let profile = UserProfile(tagAffinity: ["cats": 2])
        let ranked = ForYouScorer(lengthPrior: prior).rank(
            [candidate(1, tags: ["cats"], seconds: 40), candidate(2, tags: ["cats"], seconds: 5)], profile: profile, now: now)
        #expect(ranked.map(\.candidate.postID) == [2, 1])
        #expect(ranked[0].reason == .tag("cats"), "length changes the order, never the reason")
        // Without evidence the order is the relevance's (ties by id).
        #expect(ForYouScorer().rank([candidate(1, tags: ["cats"], seconds: 40), candidate(2, tags: ["cats"], seconds: 5)],
                                    profile: profile, now: now).map(\.candidate.postID) == [1, 2])
    }

    @Test func aTagServedLatelyGivesWayToAnotherLikedTag() {
        var profile = UserProfile(tagAffinity: ["cats": 2, "dogs": 1.9])
        let pair = [candidate(1, tags: ["cats"], seconds: 10), candidate(2, tags: ["dogs"], seconds: 10)]
        #expect(ForYouScorer().rank(pair, profile: profile, now: now).first?.candidate.postID == 1)
        profile.recentTagExposure = ["cats": 6]
        #expect(ForYouScorer().rank(pair, profile: profile, now: now).first?.candidate.postID == 2)
    }

    @Test func explorationIsTiltedTowardsLongViewedLengthsButStaysRandom() {
        let scorer = ForYouScorer(lengthPrior: prior)
        let pool = [candidate(1, tags: ["x"], seconds: 40, sources: [.explore]), candidate(2, tags: ["y"], seconds: 5, sources: [.explore])]
        var generator = SystemRandomNumberGenerator()
        var shortFirst = 0
        for _ in 0..<2_000 {
            let order = scorer.rankExplore(pool, using: &generator)
            #expect(order.allSatisfy { $0.reason == .explore })
            if order.first?.candidate.postID == 2 { shortFirst += 1 }
        }
        // Weights ≈ 1.6 vs 0.8 (lifts): the short clip leads about two times in three, not always.
        #expect(shortFirst > 1_150 && shortFirst < 1_850)
    }
}

@Suite struct AvoidedTagTests {
    @Test func clearlyRejectedTagsAreAvoidedNotMildlyNegativeOnes() {
        let profile = ProfileBuilder().build(
            signals: [], tagScores: ["Horror": -2.5, "gore": -1.0, "news": -0.4, "cats": 3], uploaderScores: [:], signalCount: 30)
        #expect(profile.avoidedTags == ["horror", "gore"])
        #expect(profile.tagAffinity.keys.sorted() == ["cats"])
    }

    @Test func aCandidateWithARejectedTagFallsBehindInRankingAndExploration() {
        var profile = UserProfile(tagAffinity: ["cats": 1])
        profile.avoidedTags = ["horror"]
        let plain = Candidate(postID: 1, uploader: nil, tags: ["cats"], addedAt: .distantPast, sources: [.tag])
        let mixed = Candidate(postID: 2, uploader: nil, tags: ["cats", "Horror"], addedAt: .distantPast, sources: [.tag])
        let scorer = ForYouScorer()
        let now = Date()
        let scores = scorer.rank([mixed, plain], profile: profile, now: now)
        #expect(scores.map(\.candidate.postID) == [1, 2])
        #expect(abs(scores[1].score - scores[0].score * scorer.avoidedTagFactor) < 1e-12)
        var generator = SystemRandomNumberGenerator()
        var rejectedFirst = 0
        for _ in 0..<1_000 where scorer.rankExplore([plain, mixed], profile: profile, using: &generator).first?.candidate.postID == 2 {
            rejectedFirst += 1
        }
        // Weights 1 and 0.2: first about one time in six, not never.
        #expect(rejectedFirst > 80 && rejectedFirst < 300)
    }
}
