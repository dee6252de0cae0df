import Foundation
import ReelModels
import ReelStore
import ReelStoreSQLite
import ReelTestSupport
import Testing
import ReelTestFiles

@Suite("Sharing one database file")
struct ConcurrentClaimTests {
    /// Two stores on one file stand in for two processes: separate connections, separate
    /// pools, only SQLite's locking between them.
    @Test("two stores on the same file, four claimers: every job is claimed exactly once")
    func everyJobClaimedOnce() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let first = try SQLiteStore(path: folder.databasePath)
        let second = try SQLiteStore(path: folder.databasePath)
        var enqueued: [Job] = []
        for index in 0..<50 {
            enqueued.append(try await first.enqueue(kind: .transcode, postID: nil, maxAttempts: 3, now: t0.addingTimeInterval(Double(index))))
        }
        let now = t0.addingTimeInterval(100)
        let claimed = try await withThrowingTaskGroup(of: [Int64].self) { group in
            for claimer in 0..<4 {
                let store = claimer.isMultiple(of: 2) ? first : second
                group.addTask {
                    var mine: [Int64] = []
                    while let job = try await store.claim(workerID: "claimer-\(claimer)", kinds: [.transcode], leaseDuration: 60, now: now) {
                        mine.append(job.id)
                    }
                    return mine
                }
            }
            var all: [Int64] = []
            for try await ids in group { all += ids }
            return all
        }
        #expect(claimed.count == 50)
        #expect(Set(claimed) == Set(enqueued.map(\.id)))
        let jobs = try await second.jobs(states: nil, limit: 100)
        #expect(jobs.allSatisfy { $0.state == .running && $0.attempts == 1 })
    }

    @Test("a fresh file opened by several stores at once is migrated once")
    func concurrentOpen() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.databasePath
        let versions = try await withThrowingTaskGroup(of: String?.self) { group in
            for _ in 0..<4 {
                group.addTask { try SQLiteStore(path: path).schemaVersion() }
            }
            var versions: [String?] = []
            for try await version in group { versions.append(version) }
            return versions
        }
        #expect(versions == Array(repeating: SQLiteStore.currentSchemaVersion, count: 4))
    }
}
