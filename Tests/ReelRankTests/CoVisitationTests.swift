import Foundation
import ReelModels
import ReelRank
import Testing

@Suite struct CoVisitationTests {
    // Post 1 is met by four people; with 2 by two of its three, with 3 and 4 by one each.
    let histories: [[Int64]] = [[1, 2], [1, 2, 2], [1, 3], [2, 3], [4, 1]]

    @Test func plainCosineAtExponentOneHalf() throws {
        let neighbors = CoVisitation(topK: 10, popularityExponent: 0.5).neighbors(histories: histories)
        let ofOne = try #require(neighbors[1])
        #expect(ofOne.map(\.postID) == [2, 4, 3])
        // c(1,2) = 2 (the repeated 2 counts once), n(1) = 4, n(2) = 3.
        #expect(abs(ofOne[0].score - 2 / (4.0 * 3).squareRoot()) < 1e-12)
        #expect(abs(ofOne[1].score - 1 / 4.0.squareRoot()) < 1e-12)
        #expect(neighbors[4]?.map(\.postID) == [1])
    }

    @Test func aHigherExponentLiftsTheRarerNeighbour() throws {
        let neighbors = CoVisitation(topK: 10, popularityExponent: 0.9).neighbors(histories: histories)
        #expect(try #require(neighbors[1]).map(\.postID) == [4, 2, 3])
    }

    @Test func keepsTopKAndOnlyTheRecentHistory() {
        #expect(CoVisitation(topK: 1, popularityExponent: 0.5).neighbors(histories: histories)[1]?.map(\.postID) == [2])
        // With one post of history per person nobody co-visits anything.
        #expect(CoVisitation(maxHistory: 1).neighbors(histories: histories).isEmpty)
    }

    @Test func positiveHistoriesAreTheRecentDistinctPostsOfPositiveEvents() {
        let at = Date(timeIntervalSince1970: 1_000)
        func event(_ post: Int64, _ type: EventType, _ seconds: Double) -> WatchEvent {
            WatchEvent(postID: post, type: type, at: at.addingTimeInterval(seconds), watchedMs: type == .skip ? 500 : 10_000, durationMs: 10_000)
        }
        let interactions: [Int64: [WatchEvent]] = [
            7: [event(5, .share, 4), event(1, .view, 0), event(4, .skip, 1), event(3, .like, 2), event(1, .view, 3)],
            8: [event(6, .share, 0)],
        ]
        // Person 7: 1, (skip), 3, 1 again, 5 → distinct by latest: 3, 1, 5. Person 8 has one post.
        #expect(ProfileBuilder.positiveHistories(interactions) == [[3, 1, 5]])
        #expect(ProfileBuilder.positiveHistories(interactions, maxPerUser: 2) == [[1, 5]])
    }
}
