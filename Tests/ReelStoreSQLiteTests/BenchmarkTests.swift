import Foundation
import ReelModels
import ReelStore
import ReelStoreCore
import ReelStoreSQLite
import ReelTestSupport
import Testing
import ReelTestFiles

/// Timings for bulk insert and feed pages on a large file-backed library. Off by default (they
/// take a while and write hundreds of MB); run with `REELHOUSE_BENCH=100000` (or any count).
@Suite("Benchmarks", .enabled(if: ProcessInfo.processInfo.environment["REELHOUSE_BENCH"] != nil))
struct BenchmarkTests {
    @Test("bulk insert, then feed pages at depth")
    func bulkInsertAndFeed() async throws {
        let count = Int(ProcessInfo.processInfo.environment["REELHOUSE_BENCH"] ?? "") ?? 100_000
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try SQLiteStore(path: folder.databasePath)
        let clock = ContinuousClock()
        let insert = try clock.measure { try store.insertSyntheticPosts(count: count, tagsPerPost: 3, now: t0) }
        print("BENCH insertSyntheticPosts(\(count)) took \(insert)")
        #expect(try await store.countPosts(status: .ready) == count)

        let user = try await store.createUser(name: "bench", role: .owner, passwordHash: "h", now: t0)
        for filter in [FeedFilter(), FeedFilter(tags: ["topic3"]), FeedFilter(tags: ["topic499"]), FeedFilter(excludeTags: ["topic0"], kind: .video)] {
            var position = FeedPosition.start(seed: 77)
            var pages = 0
            let elapsed = try await clock.measure {
                for _ in 0..<50 {
                    let page = try await store.feedPage(userID: user.id, filter: filter, position: position, limit: 20)
                    pages += 1
                    guard let next = page.next else { break }
                    position = next
                }
            }
            print("BENCH feed \(filter.tags) \(filter.excludeTags): \(pages) pages of 20 took \(elapsed) (\(elapsed / max(1, pages)) per page)")
        }
        let counting = try await clock.measure { _ = try await store.countFeed(userID: user.id, filter: .all) }
        let tags = try await clock.measure { _ = try await store.tagCounts() }
        print("BENCH countFeed(all) \(counting), tagCounts \(tags)")
    }
}
