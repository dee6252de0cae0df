import Foundation
import Logging
import ReelJobs
import ReelModels
import ReelRank
import ReelStore

/// For You's upkeep on the job system (docs/recommendations-api.md, "Retention"): the
/// recurring `events.expire` job deletes watch events past the retention (the aggregates they
/// fed stay), and `recs.neighbors` rebuilds the item-to-item neighbour table from the events
/// that remain, with the same `CoVisitation` that `reelhouse eval` measures, and recounts the
/// long-view rate per length bucket (`LengthPrior`).
public struct EventUpkeep: Sendable {
    let events: any EventStore
    /// `eventRetentionDays`, in seconds.
    let retention: TimeInterval
    /// Its `maxHistory` also bounds what is read: each person's most recent positive posts.
    let coVisitation: CoVisitation
    let logger: Logger
    let now: @Sendable () -> Date
    let rules = ForYouRules()

    public init(
        events: any EventStore, retention: TimeInterval, coVisitation: CoVisitation = CoVisitation(),
        logger: Logger, now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.events = events
        self.retention = retention
        self.coVisitation = coVisitation
        self.logger = logger
        self.now = now
    }

    /// `events.expire`, hourly: the retention is counted in days, so an hour late is nothing.
    public func expiryJob(every interval: TimeInterval = 3_600) -> RecurringJob {
        RecurringJob(kind: .eventsExpire, every: interval) { try await expire() }
    }

    /// `recs.neighbors`, every ten minutes: new watching shows up in "because you watched…"
    /// within minutes, while a rebuild stays a small share of the machine.
    public func neighborsJob(every interval: TimeInterval = 600) -> RecurringJob {
        RecurringJob(kind: .recsNeighbors, every: interval) { try await rebuildNeighbors() }
    }

    /// Deletes events older than the retention; answers how many.
    @discardableResult
    public func expire() async throws -> Int {
        let deleted = try await events.expireEvents(before: now().addingTimeInterval(-retention))
        if deleted > 0 { logger.info("expired watch events", metadata: ["count": "\(deleted)"]) }
        return deleted
    }

    /// Reads the positive histories, computes the neighbours off Swift's cooperative threads
    /// (a large log takes seconds of CPU that requests must not wait behind), and replaces the
    /// table in one transaction. Answers how many posts have neighbours.
    @discardableResult
    public func rebuildNeighbors() async throws -> Int {
        let started = ContinuousClock.now
        let histories = try await events.positiveHistories(maxPerUser: coVisitation.maxHistory, aggregation: rules)
        let coVisitation = coVisitation
        let neighbors = await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .utility).async {
                continuation.resume(returning: coVisitation.neighbors(histories: histories))
            }
        }
        try await events.replaceNeighbors(neighbors)
        try await events.rebuildLengthBuckets(edges: rules.lengthBucketEdges)
        logger.info("rebuilt post neighbours", metadata: [
            "people": "\(histories.count)", "posts": "\(neighbors.count)", "elapsed": "\(ContinuousClock.now - started)",
        ])
        return neighbors.count
    }
}
