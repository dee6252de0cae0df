import Foundation

/// Top-K metrics with binary relevance: an item is relevant when it is in the person's test set.
public enum RankingMetrics {
    /// Hits in the first `k` recommendations ÷ the number of relevant items.
    public static func recall<Item: Hashable>(recommended: [Item], relevant: Set<Item>, k: Int) -> Double {
        guard !relevant.isEmpty else { return 0 }
        let hits = recommended.prefix(k).filter { relevant.contains($0) }.count
        return Double(hits) / Double(relevant.count)
    }

    /// DCG of the first `k` recommendations (a hit at rank r, counted from 1, is worth
    /// 1/log₂(r+1)) ÷ the DCG of a perfect list (min(k, relevant) hits on top).
    public static func ndcg<Item: Hashable>(recommended: [Item], relevant: Set<Item>, k: Int) -> Double {
        guard !relevant.isEmpty, k > 0 else { return 0 }
        var dcg = 0.0
        for (rank, item) in recommended.prefix(k).enumerated() where relevant.contains(item) {
            dcg += 1 / log2(Double(rank + 2))
        }
        let ideal = (0..<min(k, relevant.count)).reduce(0.0) { $0 + 1 / log2(Double($1 + 2)) }
        return dcg / ideal
    }

    /// Distinct recommended items ÷ catalogue size.
    public static func coverage<Item: Hashable>(recommended: Set<Item>, catalogueSize: Int) -> Double {
        catalogueSize > 0 ? Double(recommended.count) / Double(catalogueSize) : 0
    }
}
