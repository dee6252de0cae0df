import Foundation

/// An item-to-item neighbour with its similarity.
public struct Neighbor: Sendable, Equatable {
    public var postID: Int64
    public var score: Double

    public init(postID: Int64, score: Double) {
        self.postID = postID
        self.score = score
    }
}

/// Item-to-item neighbours from who watched what: two posts are neighbours when the same people
/// engaged positively with both. Built by the `recs.neighbors` job (server) and by `reelhouse
/// eval` from a training log — the same function. (Baseline body: cosine over co-occurrence;
/// ReelRank's owner tunes it on eval.)
public struct CoVisitation: Sendable {
    /// Neighbours kept per post.
    public var topK: Int

    public init(topK: Int = 50) {
        self.topK = topK
    }

    /// `histories`: per person, the posts they engaged with positively, oldest first.
    public func neighbors(histories: [[Int64]]) -> [Int64: [Neighbor]] {
        var itemCount: [Int64: Double] = [:]
        var pairs: [Int64: [Int64: Double]] = [:]
        for history in histories {
            let items = Array(Set(history))
            for item in items { itemCount[item, default: 0] += 1 }
            for a in items {
                for b in items where a != b { pairs[a, default: [:]][b, default: 0] += 1 }
            }
        }
        var result: [Int64: [Neighbor]] = [:]
        for (item, counts) in pairs {
            let norm = (itemCount[item] ?? 1).squareRoot()
            let ranked = counts.map { Neighbor(postID: $0.key, score: $0.value / (norm * (itemCount[$0.key] ?? 1).squareRoot())) }
                .sorted { $0.score != $1.score ? $0.score > $1.score : $0.postID < $1.postID }
            result[item] = Array(ranked.prefix(topK))
        }
        return result
    }
}
