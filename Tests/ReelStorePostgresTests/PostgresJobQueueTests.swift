import Foundation
import ReelModels
import ReelStore
import ReelStorePostgres
import ReelTestSupport
import Testing

/// What only several nodes on one PostgreSQL database can show: claims that skip each other's
/// locked rows, and workers woken by another node's new work.
@Suite("PostgreSQL job queue across nodes")
struct PostgresJobQueueTests {
    /// A fixed instant, so leases and run-after times do not depend on the clock.
    let t0 = Date(timeIntervalSince1970: 1_700_000_000)

    @Test("two nodes, four claimers each: every job is claimed exactly once")
    func everyJobClaimedOnce() async throws {
        let url = try await PostgresCluster.shared.freshDatabase()
        let t0 = t0
        let claimed = try await PostgresStore.withStore(url: url, logger: testLogger) { (first) async throws in
            try await PostgresStore.withStore(url: url, migrating: false, logger: testLogger) { (second) async throws in
                for index in 0..<60 {
                    _ = try await first.enqueue(kind: .transcode, postID: nil, maxAttempts: 3, now: t0.addingTimeInterval(Double(index)))
                }
                let now = t0.addingTimeInterval(100)
                let claimed = try await withThrowingTaskGroup(of: [Int64].self) { group in
                    for claimer in 0..<8 {
                        let store = claimer.isMultiple(of: 2) ? first : second
                        group.addTask {
                            var mine: [Int64] = []
                            while let job = try await store.claim(workerID: "claimer-\(claimer)", kinds: [.transcode], leaseDuration: 60, now: now) {
                                mine.append(job.id)
                            }
                            return mine
                        }
                    }
                    return try await group.reduce(into: []) { $0 += $1 }
                }
                let jobs = try await second.jobs(states: nil, limit: 100)
                #expect(jobs.count == 60)
                #expect(jobs.allSatisfy { $0.state == .running && $0.attempts == 1 }, "no job claimed twice")
                #expect(Set(claimed) == Set(jobs.map(\.id)))
                return claimed
            }
        }
        #expect(claimed.count == 60, "each claim handed out a different job")
        await PostgresCluster.shared.drop(url)
    }

    // The limit catches a lost wakeup (the loop below would wait forever); it also covers the
    // shared cluster's start, which on a loaded 2-core machine has taken over a minute.
    @Test("a worker listening on one node is woken by a job enqueued on another, with its kind", .timeLimit(.minutes(4)))
    func wakeups() async throws {
        let url = try await PostgresCluster.shared.freshDatabase()
        let t0 = t0
        try await PostgresStore.withStore(url: url, logger: testLogger) { (listener) async throws in
            try await PostgresStore.withStore(url: url, migrating: false, logger: testLogger) { (producer) async throws in
                try await listener.withJobWakeups { (wakeups) async throws in
                    _ = try await producer.enqueue(kind: .uploadImport, subject: "upload-1", maxAttempts: 3, timeLimit: nil, now: t0)
                    // The same subject again records nothing and so wakes no one; the next job does.
                    _ = try await producer.enqueue(kind: .uploadImport, subject: "upload-1", maxAttempts: 3, timeLimit: nil, now: t0)
                    _ = try await producer.enqueue(kind: .transcode, postID: nil, maxAttempts: 3, now: t0)
                    var woken: [JobKind] = []
                    for try await kind in wakeups {
                        woken.append(kind)
                        if woken.count == 2 { break }
                    }
                    #expect(woken == [.uploadImport, .transcode])
                }
            }
        }
        await PostgresCluster.shared.drop(url)
    }
}
