import Foundation
import ReelJobs
import ReelModels
import ReelStore
import ReelStoreSQLite
import ReelTestSupport
import Testing

@Suite("JobWorker: a stuck attempt times out")
struct JobTimeoutTests {
    @Test("an attempt still running at attemptTimeout is stopped, and its job and post fail for good")
    func stuckAttemptFails() async throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        let job = try await database.enqueuePost("stuck", maxAttempts: 3)
        let journal = Journal()
        var configuration = testConfiguration()
        configuration.attemptTimeout = 0.3
        // Never released: only the timeout can end it (the heartbeat keeps the lease alive).
        let worker = JobWorker(
            store: database.store, handlers: [SlowHandler(journal: journal, release: Gate())], configuration: configuration,
            logger: quietLogger
        )
        let store = database.store
        try await whileRunning(worker) {
            try await waitUntil("the job to fail") { try await store.job(id: job.id)?.state == .failed }
        }
        let failed = try #require(try await store.job(id: job.id))
        #expect(failed.attempts == 1)
        #expect(failed.lastError == "stopped: still not finished after 0.3 s, so it is treated as stuck")
        #expect(await journal.cancelled.contains(job.id))
        let postID = try #require(job.postID)
        let post = try #require(try await store.post(id: postID))
        #expect(post.status == .failed)
    }

    @Test("a job cancelled in the store stops its running attempt at the next heartbeat")
    func cancelStopsTheAttempt() async throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        let job = try await database.enqueuePost("cancel-me")
        let journal = Journal()
        let worker = JobWorker(
            store: database.store, handlers: [SlowHandler(journal: journal, release: Gate())], configuration: testConfiguration(),
            logger: quietLogger
        )
        let store = database.store
        try await whileRunning(worker) {
            try await waitUntil("the job to start") { await journal.started.contains(job.id) }
            _ = try await store.cancel(jobID: job.id, reason: "cancelled by ana", now: Date())
            try await waitUntil("the handler to be cancelled") { await journal.cancelled.contains(job.id) }
        }
        #expect(try await store.job(id: job.id)?.lastError == "cancelled by ana")
    }

    @Test("the ETA extrapolates the attempt's progress rate, and is unknown early on")
    func estimate() {
        let start = Date(timeIntervalSince1970: 1_000)
        var job = Job(
            id: 1, kind: .transcode, postID: nil, state: .running, attempts: 1, maxAttempts: 3, progress: 0.25, lastError: nil,
            leaseOwner: "w", leaseExpiresAt: nil, runAfter: start, createdAt: start, updatedAt: start, startedAt: start
        )
        #expect(job.estimatedSecondsLeft(now: start.addingTimeInterval(10)) == 30)
        #expect(job.estimatedSecondsLeft(now: start.addingTimeInterval(1)) == nil)
        job.progress = 0.01
        #expect(job.estimatedSecondsLeft(now: start.addingTimeInterval(10)) == nil)
        job.state = .succeeded
        job.progress = 1
        #expect(job.estimatedSecondsLeft(now: start.addingTimeInterval(10)) == nil)
    }
}
