import Foundation
import ReelJobs
import ReelModels
import ReelStore
import ReelStoreSQLite
import ReelTestSupport
import Testing

@Suite("JobWorker running jobs from a SQLite queue")
struct JobWorkerTests {
    @Test("every job runs once and succeeds")
    func allSucceed() async throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        var jobs: [Job] = []
        for index in 0..<5 { jobs.append(try await database.enqueuePost("clip\(index)")) }
        let journal = Journal()
        let worker = JobWorker(
            store: database.store, handlers: [RecordingHandler(journal: journal)], configuration: testConfiguration(), logger: quietLogger
        )
        let store = database.store
        try await whileRunning(worker) {
            try await waitUntil("all jobs to succeed") {
                try await store.jobs(states: [.succeeded], limit: 10).count == 5
            }
        }
        let finished = try await store.jobs(states: nil, limit: 10)
        #expect(finished.allSatisfy { $0.attempts == 1 && $0.progress == 1 && $0.leaseOwner == nil })
        #expect(await journal.runs == Dictionary(uniqueKeysWithValues: jobs.map { ($0.id, 1) }))
    }

    @Test("invalid input fails the job after one attempt, with the message on job and post")
    func invalidInputIsNotRetried() async throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        let job = try await database.enqueuePost("bad", maxAttempts: 3)
        let worker = JobWorker(
            store: database.store, handlers: [InvalidInputHandler()], configuration: testConfiguration(), logger: quietLogger
        )
        let store = database.store
        try await whileRunning(worker) {
            try await waitUntil("the job to fail") { try await store.job(id: job.id)?.state == .failed }
        }
        let failed = try #require(try await store.job(id: job.id))
        #expect(failed.attempts == 1)
        #expect(failed.lastError == "not a video: no video stream")
        let postID = try #require(job.postID)
        let post = try #require(try await store.post(id: postID))
        #expect(post.status == .failed && post.failureReason == "not a video: no video stream")
    }

    @Test("transient failures are retried with backoff until the third attempt succeeds")
    func transientIsRetried() async throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        let job = try await database.enqueuePost("flaky", maxAttempts: 5)
        let journal = Journal()
        let configuration = testConfiguration()
        let worker = JobWorker(
            store: database.store, handlers: [FlakyHandler(journal: journal)], configuration: configuration, logger: quietLogger
        )
        let store = database.store
        try await whileRunning(worker) {
            try await waitUntil("the job to succeed") { try await store.job(id: job.id)?.state == .succeeded }
        }
        let done = try #require(try await store.job(id: job.id))
        #expect(done.attempts == 3)
        #expect(done.lastError == "encoder crashed (attempt 2)")
        let starts = await journal.attemptStarts
        try #require(starts.count == 3)
        // Each retry waited at least its backoff (run_after is enforced by the store's claim).
        #expect(starts[1].timeIntervalSince(starts[0]) >= configuration.retry.delay(afterAttempt: 1))
        #expect(starts[2].timeIntervalSince(starts[1]) >= configuration.retry.delay(afterAttempt: 2))
    }

    @Test("progress reported by a running handler is visible in the store")
    func progressIsVisible() async throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        let job = try await database.enqueuePost("slow")
        let journal = Journal()
        let gate = Gate()
        let worker = JobWorker(
            store: database.store, handlers: [SlowHandler(journal: journal, release: gate, progress: 0.4)],
            configuration: testConfiguration(), logger: quietLogger
        )
        let store = database.store
        try await whileRunning(worker) {
            try await waitUntil("progress 0.4 while running") {
                let current = try await store.job(id: job.id)
                return current?.state == .running && current?.progress == 0.4
            }
            await gate.open()
            try await waitUntil("the job to succeed") { try await store.job(id: job.id)?.state == .succeeded }
        }
        #expect(try await store.job(id: job.id)?.progress == 1)
    }

    @Test("a handler whose lease was taken over is cancelled and records nothing")
    func lostLeaseCancelsHandler() async throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        let job = try await database.enqueuePost("stolen")
        let journal = Journal()
        let gate = Gate()
        // The lease (0.3 s) runs out long before the first heartbeat (1 s).
        let configuration = testConfiguration(leaseDuration: 0.3, heartbeatInterval: 1)
        let worker = JobWorker(
            store: database.store, handlers: [SlowHandler(journal: journal, release: gate)], configuration: configuration,
            logger: quietLogger
        )
        let store = database.store
        try await whileRunning(worker) {
            try await waitUntil("the handler to start") { await journal.started.contains(job.id) }
            try await waitUntil("another worker to take the expired lease") {
                try await store.claim(workerID: "thief", kinds: [.transcode], leaseDuration: 60, now: Date()) != nil
            }
            try await waitUntil("the first handler to be cancelled") { await journal.cancelled.contains(job.id) }
        }
        let current = try #require(try await store.job(id: job.id))
        #expect(current.state == .running && current.leaseOwner == "thief" && current.attempts == 2)
        #expect(current.lastError == nil)
        #expect(await journal.runs[job.id] == 1)
    }

    @Test("concurrency 2 runs two jobs at the same time")
    func concurrencyTwoOverlaps() async throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        _ = try await database.enqueuePost("one")
        _ = try await database.enqueuePost("two")
        let journal = Journal()
        let worker = JobWorker(
            store: database.store, handlers: [BarrierHandler(journal: journal, expected: 2)],
            // A long lease: on a loaded machine a heartbeat can be late by seconds, and a lapsed
            // lease would run a job twice, which is not what this test is about.
            configuration: testConfiguration(concurrency: 2, leaseDuration: 120), logger: quietLogger
        )
        let store = database.store
        try await whileRunning(worker) {
            try await waitUntil("both jobs to succeed") { try await store.jobs(states: [.succeeded], limit: 10).count == 2 }
        }
        let intervals = await journal.intervals
        try #require(intervals.count == 2)
        let latestStart = try #require(intervals.map(\.start).max())
        let earliestEnd = try #require(intervals.map(\.end).min())
        #expect(latestStart < earliestEnd, "the two jobs should have been running at the same time")
    }
}
