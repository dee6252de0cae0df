import Foundation

/// How a log is cut into the past a model learns from and the future it must predict.
public enum SplitProtocol: String, CaseIterable, Sendable {
    /// Each person's last 20 % of interactions by time are their test (everyone is tested).
    case perUser = "user"
    /// One cut in time: the last 20 % of all interactions are the test (only people active after
    /// the cut are tested; many of them are new, which is what cold start is for).
    case global
}

/// A log cut in two: the training entries and, per person, the items they met only afterwards.
public struct TrainTestSplit: Sendable {
    public var splitProtocol: SplitProtocol
    public var train: [LogEntry]
    /// Per person with a test, the items of their test part that are not in their training part
    /// (a model never recommends what the person already met, so those could never be hit).
    public var test: [Int64: Set<Int64>]
    /// The newest training timestamp: the "now" of popularity.
    public var trainEnd: Double

    /// Time ties keep the log's order, so a split is the same on every run.
    public init(log: InteractionLog, protocol splitProtocol: SplitProtocol, testShare: Double = 0.2) {
        self.splitProtocol = splitProtocol
        let entries = log.entries
        func byTime(_ a: Int, _ b: Int) -> Bool {
            entries[a].timestamp != entries[b].timestamp ? entries[a].timestamp < entries[b].timestamp : a < b
        }
        func testCount(of total: Int) -> Int { Int(testShare * Double(total) + 1e-9) }

        var isTrain = [Bool](repeating: true, count: entries.count)
        switch splitProtocol {
        case .perUser:
            var indicesOf: [Int64: [Int]] = [:]
            for (index, entry) in entries.enumerated() { indicesOf[entry.userID, default: []].append(index) }
            for indices in indicesOf.values {
                let ordered = indices.sorted(by: byTime)
                for index in ordered.suffix(testCount(of: ordered.count)) { isTrain[index] = false }
            }
        case .global:
            let ordered = entries.indices.sorted(by: byTime)
            for index in ordered.suffix(testCount(of: ordered.count)) { isTrain[index] = false }
        }

        var train: [LogEntry] = []
        train.reserveCapacity(entries.count)
        var trainItems: [Int64: Set<Int64>] = [:]
        for (index, entry) in entries.enumerated() where isTrain[index] {
            train.append(entry)
            trainItems[entry.userID, default: []].insert(entry.itemID)
        }
        var test: [Int64: Set<Int64>] = [:]
        for (index, entry) in entries.enumerated() where !isTrain[index] {
            if trainItems[entry.userID]?.contains(entry.itemID) == true { continue }
            test[entry.userID, default: []].insert(entry.itemID)
        }
        self.train = train
        self.test = test
        trainEnd = train.map(\.timestamp).max() ?? 0
    }
}
