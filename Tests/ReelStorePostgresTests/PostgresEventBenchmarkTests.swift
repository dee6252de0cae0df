import Foundation
import ReelForYou
import ReelModels
import ReelRank
import ReelStore
@testable import ReelStorePostgres
import ReelStoreCore
import ReelTestSupport
import Testing

/// Event ingest, the neighbour rebuild and For You pages on PostgreSQL, printed, never asserted
/// (the SQLite side is `EventBenchmarkTests`). Off by default, on with `REELHOUSE_BENCH_EVENTS`.
@Suite("Event benchmarks on PostgreSQL", .enabled(if: ProcessInfo.processInfo.environment["REELHOUSE_BENCH_EVENTS"] != nil))
struct PostgresEventBenchmarkTests {
    static let posts = 10_000

    /// `posts` ready posts (one published through the store, the rest copied from it in SQL)
    /// of 997 uploaders with three of 300 tags each, and 200 people.
    private func library(_ store: PostgresStore) async throws -> [Int64] {
        let (first, _) = try await store.insertPost(newPost(folderName: "p1", contentHash: "h1", tags: ["t1"]), maxAttempts: 1, now: t0)
        try await store.publish(postID: first.id, media: sampleMedia, key: nil)
        // The copies skip the triggers (search documents, revision bumps): this measures events.
        for table in ["posts", "post_tag_ids"] { try await store.executeForTesting("ALTER TABLE \(table) DISABLE TRIGGER USER") }
        let keys = (0..<FeedShuffle.keyCount).map { _ in "(random() * 9223372036854775807)::bigint" }.joined(separator: ", ")
        let columns = (0..<FeedShuffle.keyCount).map { "shuffle\($0)" }.joined(separator: ", ")
        try await store.executeForTesting("""
            INSERT INTO posts (folder_name, kind, status, date_added, content_hash, uploader, uploader_key, duration, media_json, \(columns))
            SELECT 'p' || n, 'video', 'ready', \(t0.timeIntervalSince1970) - n * 60, 'h' || n, 'U' || (n % 997), 'u' || (n % 997),
                   3 + n % 60, (SELECT media_json FROM posts WHERE id = \(first.id)), \(keys)
            FROM generate_series(2, \(Self.posts)) AS n
            """)
        try await store.executeForTesting("INSERT INTO tags (name, name_key) SELECT 't' || k, 't' || k FROM generate_series(2, 300) AS k")
        try await store.executeForTesting("""
            INSERT INTO post_tag_ids (post_id, tag_id)
            SELECT p.id, t.id FROM posts p JOIN tags t ON t.name IN ('t' || (p.id % 300 + 1), 't' || ((p.id * 7) % 300 + 1), 't' || ((p.id * 13) % 300 + 1))
            ON CONFLICT DO NOTHING
            """)
        for table in ["posts", "post_tag_ids"] { try await store.executeForTesting("ALTER TABLE \(table) ENABLE TRIGGER USER") }
        try await store.executeForTesting("ANALYZE")
        var users: [Int64] = []
        for index in 0..<200 { users.append(try await store.createUser(name: "u\(index)", role: .owner, passwordHash: "h", now: t0).id) }
        return users
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    @Test("ingest, recs.neighbors and For You pages")
    func ingestAndPages() async throws {
        try await withPostgresStore(poolSize: 8) { (store) async throws in
            let users = try await library(store)
            var rng = SeededGenerator(seed: 7)
            let types: [EventType] = [.impression, .impression, .view, .view, .skip, .like, .share]
            func batch() -> [WatchEvent] {
                (0..<25).map { index in
                    let type = types[Int(rng.next() % UInt64(types.count))]
                    let post = Int64(rng.next() % UInt64(Self.posts)) + 1
                    let at = t0 + Double(index)
                    switch type {
                    case .view: return WatchEvent(id: UUID(), postID: post, type: type, at: at, watchedMs: 9_000, durationMs: 12_000, loops: 0)
                    case .skip: return WatchEvent(id: UUID(), postID: post, type: type, at: at, watchedMs: 700)
                    default: return WatchEvent(id: UUID(), postID: post, type: type, at: at)
                    }
                }
            }
            let clock = ContinuousClock()
            let batches = (0..<1_600).map { _ in batch() }
            let sequential = try await clock.measure {
                for (index, events) in batches.enumerated() { _ = try await store.recordEvents(userID: users[index % users.count], events, aggregation: ForYouRules()) }
            }
            print("BENCH pg ingest, one at a time: \(batches.count * 25) events in \(sequential): \(Int(Double(batches.count * 25) / Self.seconds(sequential))) events/s")
            let more = (0..<1_600).map { _ in batch() }
            let parallel = try await clock.measure {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for lane in 0..<8 {
                        group.addTask {
                            for index in stride(from: lane, to: more.count, by: 8) {
                                _ = try await store.recordEvents(userID: users[index % users.count], more[index], aggregation: ForYouRules())
                            }
                        }
                    }
                    try await group.waitForAll()
                }
            }
            print("BENCH pg ingest, 8 at once: \(more.count * 25) events in \(parallel): \(Int(Double(more.count * 25) / Self.seconds(parallel))) events/s")

            let upkeep = try await clock.measure {
                let histories = try await store.positiveHistories(maxPerUser: 200, aggregation: ForYouRules())
                try await store.replaceNeighbors(CoVisitation().neighbors(histories: histories))
                _ = try await store.rebuildLengthBuckets(edges: LengthPrior.edges)
            }
            print("BENCH pg recs.neighbors over \(batches.count * 50) events: \(upkeep)")

            var forYou: [Double] = []
            var latest: [Double] = []
            for user in users.prefix(10) {
                var position = ForYouPosition.start(seed: UInt64(user))
                var after: LatestPosition?
                for page in 0..<5 {
                    let start = clock.now
                    let result = try await ForYouFeed(source: store, feed: store).page(userID: user, filter: FeedFilter(), position: position, limit: 12, now: t0 + Double(page))
                    forYou.append(Self.seconds(clock.now - start) * 1_000)
                    position = try #require(result.next)
                    let latestStart = clock.now
                    after = try await store.latestPage(userID: user, filter: FeedFilter(), after: after, limit: 12).next
                    latest.append(Self.seconds(clock.now - latestStart) * 1_000)
                }
            }
            func percentile(_ values: [Double], _ share: Double) -> String {
                String(format: "%.1f", values.sorted()[min(values.count - 1, Int(Double(values.count) * share))])
            }
            print("BENCH pg For You page of 12 (\(forYou.count) pages): median \(percentile(forYou, 0.5)) ms, p90 \(percentile(forYou, 0.9)) ms")
            print("BENCH pg Latest page of 12 (\(latest.count) pages): median \(percentile(latest, 0.5)) ms, p90 \(percentile(latest, 0.9)) ms")
        }
    }
}
