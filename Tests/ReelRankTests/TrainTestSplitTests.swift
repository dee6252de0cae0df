import Foundation
import ReelRank
import Testing

@Suite struct TrainTestSplitTests {
    /// Person 1 rated items 1…10 at times given out of order; person 2 only two items.
    let log = InteractionLog(entries: [
        LogEntry(userID: 1, itemID: 5, rating: 4, timestamp: 500),
        LogEntry(userID: 1, itemID: 1, rating: 4, timestamp: 100),
        LogEntry(userID: 1, itemID: 10, rating: 4, timestamp: 1_000),
        LogEntry(userID: 1, itemID: 2, rating: 4, timestamp: 200),
        LogEntry(userID: 1, itemID: 9, rating: 4, timestamp: 900),
        LogEntry(userID: 1, itemID: 3, rating: 4, timestamp: 300),
        LogEntry(userID: 1, itemID: 8, rating: 4, timestamp: 800),
        LogEntry(userID: 1, itemID: 4, rating: 4, timestamp: 400),
        LogEntry(userID: 1, itemID: 7, rating: 4, timestamp: 700),
        LogEntry(userID: 1, itemID: 6, rating: 4, timestamp: 600),
        LogEntry(userID: 2, itemID: 1, rating: 3, timestamp: 50),
        LogEntry(userID: 2, itemID: 11, rating: 3, timestamp: 2_000),
    ])

    @Test func perUserSplitTestsEachPersonOnTheirLastFifth() {
        let split = TrainTestSplit(log: log, protocol: .perUser)
        #expect(split.test == [1: [9, 10]]) // person 2's fifth of 2 rounds down to none
        #expect(split.train.count == 10)
        #expect(!split.train.contains { $0.userID == 1 && $0.timestamp >= 900 })
        #expect(split.trainEnd == 2_000)
    }

    @Test func globalSplitCutsAllInteractionsAtOneInstant() {
        let split = TrainTestSplit(log: log, protocol: .global)
        // 12 interactions: the last two by time are person 2's item 11 and person 1's item 10.
        #expect(split.test == [1: [10], 2: [11]])
        #expect(split.trainEnd == 900)
        #expect(split.train.allSatisfy { $0.timestamp <= 900 })
    }

    @Test func anItemMetAgainAfterTheCutIsNotATest() {
        let repeated = InteractionLog(entries: (1...5).map { LogEntry(userID: 1, itemID: Int64($0), timestamp: Double($0)) }
            + [LogEntry(userID: 1, itemID: 1, timestamp: 10)])
        let split = TrainTestSplit(log: repeated, protocol: .perUser)
        #expect(split.test.isEmpty)
    }
}
