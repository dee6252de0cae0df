import Foundation
import ReelForYou
import ReelModels
import ReelRank
import ReelStore
import ReelTestSupport
import Testing
@testable import ReelStoreSQLite
import ReelTestFiles

/// Ingest throughput and the neighbour rebuild on a large log, printed, never asserted. Off by
/// default; `REELHOUSE_BENCH_EVENTS=1000000` sets the size of the log the rebuild reads.
@Suite("Event benchmarks", .enabled(if: ProcessInfo.processInfo.environment["REELHOUSE_BENCH_EVENTS"] != nil))
struct EventBenchmarkTests {
    static let logSize = Int(ProcessInfo.processInfo.environment["REELHOUSE_BENCH_EVENTS"] ?? "") ?? 1_000_000

    @Test("ingest: batches of 25 events from many people")
    func ingest() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try SQLiteStore(path: folder.databasePath)
        try store.insertSyntheticPosts(count: 10_000, tagsPerPost: 3, now: t0)
        var users: [Int64] = []
        for index in 0..<200 { users.append(try await store.createUser(name: "u\(index)", role: .owner, passwordHash: "h", now: t0).id) }
        var rng = SplitMix(state: 7)
        let types: [EventType] = [.impression, .impression, .view, .view, .skip, .like, .share]
        func batch() -> [WatchEvent] {
            (0..<25).map { index in
                let type = types[Int(rng.next() % UInt64(types.count))]
                let post = Int64(rng.next() % 10_000) + 1
                let at = t0 + Double(index)
                switch type {
                case .view: return WatchEvent(id: UUID(), postID: post, type: type, at: at, watchedMs: 9_000, durationMs: 12_000, loops: 0)
                case .skip: return WatchEvent(id: UUID(), postID: post, type: type, at: at, watchedMs: 700)
                default: return WatchEvent(id: UUID(), postID: post, type: type, at: at)
                }
            }
        }
        let batches = (0..<1_600).map { _ in batch() }
        let clock = ContinuousClock()
        let elapsed = try await clock.measure {
            for (index, events) in batches.enumerated() {
                _ = try await store.recordEvents(userID: users[index % users.count], events, aggregation: ForYouRules())
            }
        }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        print("BENCH ingest: \(batches.count * 25) events in \(elapsed): \(Int(Double(batches.count * 25) / seconds)) events/s")
    }

    @Test("recs.neighbors over a large log")
    func neighbours() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try SQLiteStore(path: folder.databasePath)
        try store.insertSyntheticPosts(count: 100_000, tagsPerPost: 3, now: t0)
        for index in 0..<10_000 { _ = try await store.createUser(name: "u\(index)", role: .owner, passwordHash: "h", now: t0) }
        let clock = ContinuousClock()
        // Raw rows (the ingest's aggregates are not what this measures): user, a post skewed
        // towards popular ones, a view of which about half are long, or a like.
        let fill = try clock.measure {
            try store.executeRaw("""
                WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < \(Self.logSize - 1))
                INSERT INTO watch_events (user_id, event_id, post_id, type, at, watched_ms, duration_ms, loops, value)
                SELECT 1 + i % 10000, randomblob(16), 1 + abs(random() % (1 + abs(random() % 100000))),
                       CASE WHEN i % 5 = 0 THEN 4 ELSE 2 END, \(t0.timeIntervalSince1970) + i,
                       CASE WHEN i % 2 = 0 THEN 12000 ELSE 3000 END, 12000, 0, NULL
                FROM n
                """)
        }
        print("BENCH filled \(Self.logSize) events in \(fill)")
        let upkeepStart = clock.now
        let histories = try await store.positiveHistories(maxPerUser: 200, aggregation: ForYouRules())
        let read = clock.now - upkeepStart
        let neighbors = CoVisitation().neighbors(histories: histories)
        let computed = clock.now - upkeepStart - read
        try await store.replaceNeighbors(neighbors)
        let written = clock.now - upkeepStart - read - computed
        let rows = try store.rawStrings("SELECT COUNT(*) FROM post_neighbors").first ?? "?"
        print("BENCH recs.neighbors: \(histories.count) histories read in \(read), neighbours of \(neighbors.count) posts computed in \(computed), \(rows) rows written in \(written)")
    }
}
