import Foundation

/// One model's row of an evaluation table.
public struct ModelScore: Sendable, Equatable {
    public var model: String
    public var recall: Double
    public var ndcg: Double
    public var coverage: Double

    public init(model: String, recall: Double, ndcg: Double, coverage: Double) {
        self.model = model
        self.recall = recall
        self.ndcg = ndcg
        self.coverage = coverage
    }
}

/// Every model on one split.
public struct SplitReport: Sendable {
    public var splitProtocol: SplitProtocol
    public var trainCount: Int
    public var testedUsers: Int
    /// Tested people with no training history (cold start: only popularity can serve them).
    public var coldUsers: Int
    public var catalogueSize: Int
    public var k: Int
    public var rows: [ModelScore]

    public init(
        splitProtocol: SplitProtocol, trainCount: Int, testedUsers: Int, coldUsers: Int = 0, catalogueSize: Int, k: Int, rows: [ModelScore]
    ) {
        self.splitProtocol = splitProtocol
        self.trainCount = trainCount
        self.testedUsers = testedUsers
        self.coldUsers = coldUsers
        self.catalogueSize = catalogueSize
        self.k = k
        self.rows = rows
    }

    public func row(_ model: String) -> ModelScore? { rows.first { $0.model == model } }

    /// A plain-text table: one line per model.
    public var table: String {
        let title = switch splitProtocol {
        case .perUser: "per-user temporal 80/20"
        case .global: "global temporal 80/20"
        }
        let cold = coldUsers > 0 ? " (\(coldUsers) with no training history)" : ""
        var lines = ["\(title): \(trainCount) training interactions, \(testedUsers) people tested\(cold), \(catalogueSize) items"]
        lines.append("model".padding(toLength: 14, withPad: " ", startingAt: 0) + "Recall@\(k)  NDCG@\(k)  coverage")
        for row in rows {
            lines.append(
                row.model.padding(toLength: 14, withPad: " ", startingAt: 0)
                    + String(format: "%9.3f  %7.3f  %8.3f", row.recall, row.ndcg, row.coverage)
            )
        }
        return lines.joined(separator: "\n")
    }
}

/// Runs random, most-popular, item-kNN, ours and ours+explore over one split with one protocol
/// for all: the same training part, the same test sets, the person's training items excluded
/// from every model's recommendations, Recall/NDCG@k averaged over the people with a test.
public struct OfflineEvaluation: Sendable {
    public static let models = ["random", "most-popular", "item-knn", "ours", "ours+explore"]

    public var k: Int
    public var seed: UInt64

    public init(k: Int = 10, seed: UInt64 = 16) {
        self.k = k
        self.seed = seed
    }

    public func run(_ log: InteractionLog, split splitProtocol: SplitProtocol) throws(RankError) -> SplitReport {
        let split = TrainTestSplit(log: log, protocol: splitProtocol)
        guard !split.train.isEmpty, !split.test.isEmpty else {
            throw .unusableLog(reason: "the \(splitProtocol.rawValue) split of \(log.entries.count) interactions leaves no training or no test part (too few interactions)")
        }
        let data = EvalData(log: log, split: split)
        let ours = OursModel().pages(data, k: k, seed: seed)
        let recommendations: [(String, [Int64: [Int64]])] = [
            ("random", Baselines.random(data, k: k, seed: seed)),
            ("most-popular", Baselines.mostPopular(data, k: k)),
            ("item-knn", Baselines.itemKNN(data, k: k)),
            ("ours", ours.ranked),
            ("ours+explore", ours.explored),
        ]
        let rows = recommendations.map { name, lists in score(name, lists, data: data) }
        return SplitReport(
            splitProtocol: splitProtocol, trainCount: split.train.count, testedUsers: data.testUsers.count,
            coldUsers: data.testUsers.filter { data.trainItems[$0] == nil }.count, catalogueSize: data.catalogue.count, k: k, rows: rows
        )
    }

    func score(_ model: String, _ lists: [Int64: [Int64]], data: EvalData) -> ModelScore {
        var recall = 0.0
        var ndcg = 0.0
        var recommended = Set<Int64>()
        for user in data.testUsers {
            let list = Array((lists[user] ?? []).prefix(k))
            let relevant = data.split.test[user] ?? []
            recall += RankingMetrics.recall(recommended: list, relevant: relevant, k: k)
            ndcg += RankingMetrics.ndcg(recommended: list, relevant: relevant, k: k)
            recommended.formUnion(list)
        }
        let people = Double(max(1, data.testUsers.count))
        return ModelScore(
            model: model, recall: recall / people, ndcg: ndcg / people,
            coverage: RankingMetrics.coverage(recommended: recommended, catalogueSize: data.catalogue.count)
        )
    }
}

/// The goals a run is judged by, each with whether it holds.
public struct EvalGoal: Sendable, Equatable {
    public var statement: String
    public var holds: Bool

    /// Issue 16's goals on MovieLens-100k: ours NDCG@10 ≥ 0.18 with coverage ≥ 0.20 on the
    /// per-user split, above most-popular on the global split (each only when that split ran).
    public static func movieLens(_ reports: [SplitReport]) -> [EvalGoal] {
        var goals: [EvalGoal] = []
        if let report = reports.first(where: { $0.splitProtocol == .perUser }), let ours = report.row("ours") {
            goals.append(EvalGoal(
                statement: String(format: "per-user: ours NDCG@10 %.3f ≥ 0.18 and coverage %.3f ≥ 0.20", ours.ndcg, ours.coverage),
                holds: ours.ndcg >= 0.18 && ours.coverage >= 0.20
            ))
        }
        if let report = reports.first(where: { $0.splitProtocol == .global }), let ours = report.row("ours"),
           let popular = report.row("most-popular") {
            goals.append(EvalGoal(
                statement: String(format: "global: ours NDCG@10 %.3f > most-popular %.3f", ours.ndcg, popular.ndcg),
                holds: ours.ndcg > popular.ndcg
            ))
        }
        return goals
    }

    /// On a generated log (users with latent tastes) ours must beat knowing nothing and
    /// knowing only what is popular, on every split.
    public static func generated(_ reports: [SplitReport]) -> [EvalGoal] {
        reports.compactMap { report in
            guard let ours = report.row("ours"), let random = report.row("random"), let popular = report.row("most-popular") else { return nil }
            return EvalGoal(
                statement: "\(report.splitProtocol.rawValue): "
                    + String(format: "ours NDCG@10 %.3f > random %.3f and most-popular %.3f", ours.ndcg, random.ndcg, popular.ndcg),
                holds: ours.ndcg > random.ndcg && ours.ndcg > popular.ndcg
            )
        }
    }
}
