import Foundation
import ReelRank
import Testing

@Suite struct RankingMetricsTests {
    // Hits at ranks 2 and 4 of three relevant items.
    let recommended = ["a", "b", "c", "d"]
    let relevant: Set = ["b", "d", "x"]

    @Test func recallIsHitsOverRelevant() {
        #expect(RankingMetrics.recall(recommended: recommended, relevant: relevant, k: 10) == 2.0 / 3)
        #expect(RankingMetrics.recall(recommended: recommended, relevant: relevant, k: 2) == 1.0 / 3)
        #expect(RankingMetrics.recall(recommended: recommended, relevant: [], k: 10) == 0)
    }

    @Test func ndcgDiscountsHitsByRankAgainstAPerfectList() {
        // DCG = 1/log2(3) + 1/log2(5) = 1.06161; ideal (3 hits on top) = 1 + 0.63093 + 0.5.
        let full = RankingMetrics.ndcg(recommended: recommended, relevant: relevant, k: 10)
        #expect(abs(full - 1.0616063 / 2.1309298) < 1e-6)
        // At k = 2 only the hit at rank 2 counts; ideal = two hits.
        let two = RankingMetrics.ndcg(recommended: recommended, relevant: relevant, k: 2)
        #expect(abs(two - 0.6309298 / 1.6309298) < 1e-6)
        #expect(RankingMetrics.ndcg(recommended: ["b", "d", "x"], relevant: relevant, k: 10) == 1)
        #expect(RankingMetrics.ndcg(recommended: ["a", "c"], relevant: relevant, k: 10) == 0)
    }

    @Test func coverageIsDistinctRecommendedOverCatalogue() {
        #expect(RankingMetrics.coverage(recommended: Set([1, 2, 3]), catalogueSize: 12) == 0.25)
        #expect(RankingMetrics.coverage(recommended: Set<Int>(), catalogueSize: 0) == 0)
    }
}
