import Foundation
import ReelRank
import Testing

@Suite struct OfflineEvaluationTests {
    @Test(arguments: [UInt64(16), 17])
    func oursBeatsRandomAndMostPopularOnAGeneratedLog(seed: UInt64) throws {
        let log = GeneratedLog(seed: seed).make()
        let reports = try SplitProtocol.allCases.map { try OfflineEvaluation(seed: seed).run(log, split: $0) }
        for report in reports {
            #expect(report.rows.map(\.model) == OfflineEvaluation.models)
            let ours = try #require(report.row("ours"))
            let random = try #require(report.row("random"))
            let popular = try #require(report.row("most-popular"))
            let explored = try #require(report.row("ours+explore"))
            #expect(ours.ndcg > random.ndcg + 0.1, "\(report.table)")
            #expect(ours.ndcg > popular.ndcg + 0.05, "\(report.table)")
            #expect(ours.recall > popular.recall, "\(report.table)")
            // Exploring costs accuracy and buys coverage.
            #expect(explored.ndcg < ours.ndcg && explored.coverage > ours.coverage, "\(report.table)")
            #expect(popular.coverage < ours.coverage)
        }
        let unmet = EvalGoal.generated(reports).filter { !$0.holds }.map(\.statement)
        #expect(unmet.isEmpty)
    }

    @Test func theSameSeedGivesTheSameTable() throws {
        let first = try OfflineEvaluation().run(GeneratedLog(users: 60, items: 120).make(), split: .perUser)
        let second = try OfflineEvaluation().run(GeneratedLog(users: 60, items: 120).make(), split: .perUser)
        #expect(first.rows == second.rows)
    }

    @Test func aLogTooSmallToSplitIsRefused() {
        let log = InteractionLog(entries: [LogEntry(userID: 1, itemID: 1, timestamp: 1), LogEntry(userID: 1, itemID: 2, timestamp: 2)])
        #expect(throws: RankError.self) { try OfflineEvaluation().run(log, split: .perUser) }
    }

    @Test func movieLensGoalsReadTheRightRows() {
        func report(_ split: SplitProtocol, ours: Double, popular: Double, coverage: Double) -> SplitReport {
            SplitReport(splitProtocol: split, trainCount: 8, testedUsers: 2, catalogueSize: 10, k: 10, rows: [
                ModelScore(model: "most-popular", recall: 0, ndcg: popular, coverage: 0.04),
                ModelScore(model: "ours", recall: 0, ndcg: ours, coverage: coverage),
            ])
        }
        #expect(EvalGoal.movieLens([report(.perUser, ours: 0.2, popular: 0.1, coverage: 0.25), report(.global, ours: 0.3, popular: 0.29, coverage: 0.1)])
            .map(\.holds) == [true, true])
        #expect(EvalGoal.movieLens([report(.perUser, ours: 0.2, popular: 0.1, coverage: 0.19)]).map(\.holds) == [false])
        #expect(EvalGoal.movieLens([report(.global, ours: 0.3, popular: 0.3, coverage: 1)]).map(\.holds) == [false])
    }
}
