import Foundation
import ReelModels
import ReelRank
import ReelStore

/// Synthetic watching for `make bench` (`reelhouse bench-seed --users … --events …`): people with
/// tastes. Each likes three tags (common tags more often, as a library's tag use is long-tailed);
/// most of their events are about posts of those tags (long views, likes, favorites, shares) and
/// the rest about random posts (impressions, skips, short views), spread over the last 30 days.
public struct SyntheticWatching: Sendable {
    /// Ready posts by tag id, and all of them.
    public var postsByTag: [Int64: [Int64]]
    public var allPosts: [Int64]

    public init(postsByTag: [Int64: [Int64]], allPosts: [Int64]) {
        self.postsByTag = postsByTag
        self.allPosts = allPosts
    }

    /// About `count` events spread over `users`, each person's in time order.
    public func events(users: [Int64], count: Int, now: Date) -> [PersonEvent] {
        guard !users.isEmpty, !allPosts.isEmpty else { return [] }
        var generator = SystemRandomNumberGenerator()
        let tags = postsByTag.keys.sorted()
        var events: [PersonEvent] = []
        events.reserveCapacity(count)
        for (index, userID) in users.enumerated() {
            // Spread `count` over the users, each a little more or less active.
            let share = count / users.count + (index < count % users.count ? 1 : 0)
            let mineCount = max(0, Int(Double(share) * Double.random(in: 0.5...1.5, using: &generator)))
            let tastes = tags.isEmpty ? [] : (0..<3).map { _ -> [Int64] in
                let draw = Double.random(in: 0..<1, using: &generator)
                return postsByTag[tags[Int(draw * draw * Double(tags.count))]] ?? []
            }.filter { !$0.isEmpty }
            var mine: [WatchEvent] = []
            for _ in 0..<mineCount {
                let at = now.addingTimeInterval(-Double.random(in: 60...(30 * 86_400), using: &generator))
                if let taste = tastes.randomElement(using: &generator), Double.random(in: 0..<1, using: &generator) < 0.7 {
                    // Within a tag, some posts are everyone's favourites: a skewed draw.
                    let draw = Double.random(in: 0..<1, using: &generator)
                    mine.append(Self.tasteEvent(postID: taste[Int(draw * draw * Double(taste.count))], at: at, using: &generator))
                } else {
                    mine.append(Self.randomEvent(postID: allPosts.randomElement(using: &generator)!, at: at, using: &generator))
                }
            }
            mine.sort { $0.at < $1.at }
            events += mine.map { PersonEvent(userID: userID, event: $0) }
        }
        return events
    }

    /// What the `recs.neighbors` job computes from these events.
    public static func neighbors(of events: [PersonEvent]) -> [Int64: [Neighbor]] {
        let byPerson = Dictionary(grouping: events, by: \.userID).mapValues { $0.map(\.event) }
        return CoVisitation().neighbors(histories: ProfileBuilder.positiveHistories(byPerson))
    }

    private static func tasteEvent<G: RandomNumberGenerator>(postID: Int64, at: Date, using generator: inout G) -> WatchEvent {
        switch Double.random(in: 0..<1, using: &generator) {
        case ..<0.30: WatchEvent(postID: postID, type: .impression, at: at)
        case ..<0.75: WatchEvent(postID: postID, type: .view, at: at, watchedMs: 12_500, durationMs: 12_500, loops: 1)
        case ..<0.83: WatchEvent(postID: postID, type: .skip, at: at, watchedMs: 900)
        case ..<0.90: WatchEvent(postID: postID, type: .like, at: at)
        case ..<0.95: WatchEvent(postID: postID, type: .favorite, at: at)
        case ..<0.98: WatchEvent(postID: postID, type: .share, at: at)
        default: WatchEvent(postID: postID, type: .rating, at: at, value: 5)
        }
    }

    private static func randomEvent<G: RandomNumberGenerator>(postID: Int64, at: Date, using generator: inout G) -> WatchEvent {
        switch Double.random(in: 0..<1, using: &generator) {
        case ..<0.40: WatchEvent(postID: postID, type: .impression, at: at)
        case ..<0.80: WatchEvent(postID: postID, type: .skip, at: at, watchedMs: 700)
        default: WatchEvent(postID: postID, type: .view, at: at, watchedMs: 4_000, durationMs: 12_500)
        }
    }
}
