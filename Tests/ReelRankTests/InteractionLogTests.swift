import Foundation
import ReelModels
import ReelRank
import Testing
import ReelTestFiles

@Suite struct InteractionLogTests {
    @Test func readsRecBoleAtomicFilesInAnyColumnOrder() throws {
        let text = "item_id:token\tuser_id:token\trating:float\ttimestamp:float\r\n242\t196\t3\t881250949\r\n302\t186\t5\t891717742\r\n\r\n"
        let log = try InteractionLog.parseRecBole(text)
        #expect(log.entries == [
            LogEntry(userID: 196, itemID: 242, rating: 3, timestamp: 881_250_949),
            LogEntry(userID: 186, itemID: 302, rating: 5, timestamp: 891_717_742),
        ])
        #expect(log.userCount == 2 && log.catalogueSize == 2)
    }

    @Test func ratingIsOptional() throws {
        let log = try InteractionLog.parseRecBole("user_id:token\titem_id:token\ttimestamp:float\n1\t2\t3\n")
        #expect(log.entries == [LogEntry(userID: 1, itemID: 2, rating: nil, timestamp: 3)])
        #expect(log.entries[0].events.map(\.type) == [.view])
    }

    @Test func badInputNamesTheLineAndTheReason() {
        #expect(throws: RankError.malformedLog(line: 1, reason: "the header has no item_id field (found: user_id, timestamp)")) {
            try InteractionLog.parseRecBole("user_id:token\ttimestamp:float\n1\t2\n")
        }
        #expect(throws: RankError.malformedLog(line: 3, reason: "rating \"five\" is not a number")) {
            try InteractionLog.parseRecBole("user_id:token\titem_id:token\trating:float\ttimestamp:float\n1\t2\t3\t4\n1\t3\tfive\t5\n")
        }
        #expect(throws: RankError.malformedLog(line: 2, reason: "3 fields where the header has 4")) {
            try InteractionLog.parseRecBole("user_id:token\titem_id:token\trating:float\ttimestamp:float\n1\t2\t3\n")
        }
        #expect(throws: RankError.unusableLog(reason: "the log has a header but no interactions")) {
            try InteractionLog.parseRecBole("user_id:token\titem_id:token\ttimestamp:float\n")
        }
    }

    @Test func aMissingFileIsUnreadable() throws {
        let path = TemporaryFolder.fresh("no-such", suffix: ".inter").path
        #expect(throws: RankError.unreadableLog(path: path, reason: "no such file")) {
            try InteractionLog.readRecBole(path: path)
        }
    }

    @Test func aRatingIsALongViewPlusTheRating() {
        let entry = LogEntry(userID: 1, itemID: 2, rating: 5, timestamp: 10)
        #expect(entry.events.map(\.type) == [.view, .rating])
        #expect(entry.events.map(SignalWeights.weight(of:)).reduce(0, +) == 2.5)
        let panned = LogEntry(userID: 1, itemID: 2, rating: 1, timestamp: 10)
        #expect(panned.events.map(SignalWeights.weight(of:)).reduce(0, +) < 0)
    }
}
