import Foundation
import Logging
import ReelJobs
import ReelModels
import ReelStore
import ReelStoreSQLite
import ReelTestSupport
import ServiceLifecycle
import Testing

@Suite("JobWorker lifecycle, resilience and settings")
struct JobWorkerLifecycleTests {
    @Test("graceful shutdown returns from run and releases the running job to the queue")
    func gracefulShutdownReleasesJob() async throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        let job = try await database.enqueuePost("interrupted", maxAttempts: 1)
        let journal = Journal()
        let worker = JobWorker(
            store: database.store, handlers: [SlowHandler(journal: journal, release: Gate())],
            configuration: testConfiguration(), logger: quietLogger
        )
        let group = ServiceGroup(services: [worker], logger: quietLogger)
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            try await waitUntil("the handler to start") { await journal.started.contains(job.id) }
            await group.triggerGracefulShutdown()
            try await tasks.next()  // the group (and so the worker) returned
        }
        #expect(await journal.cancelled.contains(job.id))
        let released = try #require(try await database.store.job(id: job.id))
        #expect(released.state == .queued && released.leaseOwner == nil)
        #expect(released.attempts == 0, "a shutdown does not use up the job's only attempt")
        #expect(released.lastError == "interrupted by shutdown")

        // The next worker picks it up at once and finishes it.
        let next = JobWorker(
            store: database.store, handlers: [RecordingHandler(journal: Journal())], configuration: testConfiguration(),
            logger: quietLogger
        )
        let store = database.store
        try await whileRunning(next) {
            try await waitUntil("the released job to succeed") { try await store.job(id: job.id)?.state == .succeeded }
        }
    }

    @Test("cancelling run returns promptly; the lease is left to expire")
    func cancellationLeavesLease() async throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        let job = try await database.enqueuePost("cancelled")
        let journal = Journal()
        let configuration = testConfiguration()
        let worker = JobWorker(
            store: database.store, handlers: [SlowHandler(journal: journal, release: Gate())], configuration: configuration,
            logger: quietLogger
        )
        try await whileRunning(worker) {
            try await waitUntil("the handler to start") { await journal.started.contains(job.id) }
        }
        #expect(await journal.cancelled.contains(job.id))
        let current = try #require(try await database.store.job(id: job.id))
        #expect(current.state == .running && current.leaseOwner == configuration.workerID)
    }

    @Test("store errors while claiming are logged and retried, never fatal")
    func survivesStoreErrors() async throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        let job = try await database.enqueuePost("eventually")
        let store = UnreliableClaims(base: database.store, failures: 3)
        let worker = JobWorker(
            store: store, handlers: [RecordingHandler(journal: Journal())], configuration: testConfiguration(), logger: quietLogger
        )
        try await whileRunning(worker) {
            try await waitUntil("the job to succeed") { try await store.job(id: job.id)?.state == .succeeded }
        }
        #expect(await store.failedClaims == 3)
    }

    @Test("backoff grows by the factor and stops at the cap")
    func retryPolicy() {
        let policy = RetryPolicy()
        #expect((1...6).map(policy.delay(afterAttempt:)) == [5, 20, 80, 320, 600, 600])
        #expect(policy.delay(afterAttempt: 10_000) == 600)
        #expect(RetryPolicy(base: 0.05, factor: 2, maxDelay: 1).delay(afterAttempt: 3) == 0.2)
    }

    @Test("default settings: a readable unique worker id and one job at a time on small machines")
    func defaults() {
        let configuration = JobWorkerConfiguration()
        #expect(configuration.workerID.contains("-\(ProcessInfo.processInfo.processIdentifier)-"))
        #expect(configuration.workerID != JobWorkerConfiguration().workerID)
        #expect(configuration.concurrency >= 1)
        if ProcessInfo.processInfo.activeProcessorCount <= 2 { #expect(configuration.concurrency == 1) }
        #expect(configuration.leaseDuration == 30 && configuration.heartbeatInterval == 5 && configuration.pollInterval == 0.5)
    }
}

/// A job store whose first `failures` claims throw, as a locked or unreachable database would.
final class UnreliableClaims: JobStore {
    let base: SQLiteStore
    private let counter: ClaimCounter

    init(base: SQLiteStore, failures: Int) {
        self.base = base
        self.counter = ClaimCounter(remaining: failures)
    }

    var failedClaims: Int { get async { await counter.failed } }

    func claim(workerID: String, kinds: [JobKind], leaseDuration: TimeInterval, now: Date) async throws -> Job? {
        if await counter.shouldFail() { throw StoreError.unavailable("database is locked") }
        return try await base.claim(workerID: workerID, kinds: kinds, leaseDuration: leaseDuration, now: now)
    }

    func job(id: Int64) async throws -> Job? { try await base.job(id: id) }
    func jobs(states: [JobState]?, kinds: [JobKind]?, limit: Int) async throws -> [Job] {
        try await base.jobs(states: states, kinds: kinds, limit: limit)
    }
    func jobs(postID: Int64) async throws -> [Job] { try await base.jobs(postID: postID) }
    func heartbeat(jobID: Int64, workerID: String, progress: Double, leaseDuration: TimeInterval, now: Date) async throws -> Bool {
        try await base.heartbeat(jobID: jobID, workerID: workerID, progress: progress, leaseDuration: leaseDuration, now: now)
    }
    func succeed(jobID: Int64, workerID: String, now: Date) async throws {
        try await base.succeed(jobID: jobID, workerID: workerID, now: now)
    }
    func fail(jobID: Int64, workerID: String, error: String, retryAt: Date?, now: Date) async throws {
        try await base.fail(jobID: jobID, workerID: workerID, error: error, retryAt: retryAt, now: now)
    }
    func expiredLeases(now: Date) async throws -> [Job] { try await base.expiredLeases(now: now) }
    func cancel(jobID: Int64, reason: String, now: Date) async throws -> Job? { try await base.cancel(jobID: jobID, reason: reason, now: now) }
    func retry(jobID: Int64, now: Date) async throws -> Job? { try await base.retry(jobID: jobID, now: now) }
    func job(kind: JobKind, subject: String) async throws -> Job? { try await base.job(kind: kind, subject: subject) }
    func enqueue(kind: JobKind, subject: String, maxAttempts: Int, timeLimit: TimeInterval?, now: Date) async throws -> Job {
        try await base.enqueue(kind: kind, subject: subject, maxAttempts: maxAttempts, timeLimit: timeLimit, now: now)
    }
    func reschedule(jobID: Int64, workerID: String, runAfter: Date, progress: Double?, now: Date) async throws {
        try await base.reschedule(jobID: jobID, workerID: workerID, runAfter: runAfter, progress: progress, now: now)
    }
}

actor ClaimCounter {
    private var remaining: Int
    private(set) var failed = 0

    init(remaining: Int) { self.remaining = remaining }

    func shouldFail() -> Bool {
        guard remaining > 0 else { return false }
        remaining -= 1
        failed += 1
        return true
    }
}
