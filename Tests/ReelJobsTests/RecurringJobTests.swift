import Foundation
import Logging
import ReelJobs
import ReelModels
import ReelStore
import ReelStoreSQLite
import ReelTestSupport
import Testing

/// Upkeep as a recurring job (`sweep`, `upload_expiry`): one job per kind, run again after its
/// interval by the queue's own scheduling, failures retried with the queue's backoff. Driven
/// step by step with a clock the test moves.
@Suite("Recurring upkeep jobs: one per kind, next round after the interval, retried with backoff")
struct RecurringJobTests {
    typealias TestClock = JobKindsTests.TestClock

    struct Harness {
        let database: TemporaryDatabase
        let clock = TestClock()
        let calls = JobKindsTests.CallCounter()

        var store: SQLiteStore { database.store }

        /// Fails its first `failures` rounds, then does nothing and succeeds.
        func recurring(_ kind: JobKind = .sweep, failures: Int = 0) -> RecurringJob {
            RecurringJob(kind: kind, every: 600) { [calls] in
                if await calls.next() < failures { throw JobFailure.transient("database is locked") }
            }
        }

        func worker(_ handler: RecurringJob) -> JobWorker {
            var configuration = testConfiguration()
            configuration.retry = RetryPolicy(base: 10, factor: 2, maxDelay: 100)
            return JobWorker(store: store, handlers: [handler], configuration: configuration, logger: quietLogger, now: { [clock] in clock.now })
        }

        func reload(_ job: Job) async throws -> Job { try #require(try await store.job(id: job.id)) }
    }

    func withHarness(_ body: (Harness) async throws -> Void) async throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        try await body(Harness(database: database))
    }

    @Test("scheduled once however often processes start; due at once; then again after its interval, attempts unused")
    func recursAfterInterval() async throws {
        try await withHarness { h in
            let sweep = h.recurring()
            let job = try await sweep.schedule(on: h.store, now: h.clock.now)
            #expect(try await sweep.schedule(on: h.store, now: h.clock.now.addingTimeInterval(5)) == job)
            #expect(job.kind == .sweep && job.subject == RecurringJob.subject && job.runAfter == h.clock.now && job.deadlineAt == nil)

            let worker = h.worker(sweep)
            #expect(try await worker.runOnce())
            let waiting = try await h.reload(job)
            #expect(waiting.state == .queued && waiting.attempts == 0 && waiting.runAfter == h.clock.now.addingTimeInterval(600))
            h.clock.advance(599)
            #expect(try await !worker.runOnce(), "not due before its interval")
            h.clock.advance(1)
            #expect(try await worker.runOnce())
            #expect(await h.calls.count == 2)
            #expect(try await h.reload(job).runAfter == h.clock.now.addingTimeInterval(600))
            #expect(try await h.store.jobs(states: nil, kinds: [.sweep], limit: 10).count == 1)
        }
    }

    @Test("a failing round is retried with the queue's backoff; a good round clears the failures")
    func failuresBackOffThenReset() async throws {
        try await withHarness { h in
            let expiry = h.recurring(.uploadExpiry, failures: 2)
            let job = try await expiry.schedule(on: h.store, now: h.clock.now)
            let worker = h.worker(expiry)
            #expect(try await worker.runOnce())
            var current = try await h.reload(job)
            #expect(current.state == .queued && current.attempts == 1 && current.runAfter == h.clock.now.addingTimeInterval(10))
            #expect(current.lastError == "database is locked")
            h.clock.advance(10)
            #expect(try await worker.runOnce())
            current = try await h.reload(job)
            #expect(current.attempts == 2 && current.runAfter == h.clock.now.addingTimeInterval(20))
            h.clock.advance(20)
            #expect(try await worker.runOnce())
            current = try await h.reload(job)
            #expect(current.state == .queued && current.attempts == 0 && current.lastError == nil)
            #expect(current.runAfter == h.clock.now.addingTimeInterval(600))
        }
    }

    @Test("while one worker holds the job another finds nothing to run; a job that failed for good is queued afresh at start-up")
    func oneAtATimeAndRevived() async throws {
        try await withHarness { h in
            let sweep = h.recurring(failures: 1)
            var job = try await sweep.schedule(on: h.store, now: h.clock.now)
            let claimed = try await h.store.claim(workerID: "other-process", kinds: [.sweep], leaseDuration: 30, now: h.clock.now)
            #expect(claimed?.id == job.id)
            #expect(try await !h.worker(sweep).runOnce(), "the other process is running it")
            #expect(await h.calls.count == 0)

            job = try #require(try await h.store.cancel(jobID: job.id, reason: "cancelled by owner", now: h.clock.now))
            #expect(job.state == .failed)
            let revived = try await sweep.schedule(on: h.store, now: h.clock.now)
            #expect(revived.id == job.id && revived.state == .queued && revived.attempts == 0 && revived.runAfter == h.clock.now)
        }
    }

    /// A minute's sweep is not news: upkeep starts at debug, so an operator's info log holds
    /// the work people wait for (an upload's import here), not a line a minute.
    @Test func upkeepStartsQuietlyWhilePeoplesWorkIsLogged() async throws {
        try await withHarness { h in
            let lines = RecordedLog()
            let logger = Logger(label: "jobs") { _ in RecordingLogHandler(lines: lines, logLevel: .info) }
            let sweep = h.recurring()
            _ = try await sweep.schedule(on: h.store, now: h.clock.now)
            let importer = RecurringJob(kind: .uploadImport, every: 600) {}
            _ = try await h.store.enqueue(kind: .uploadImport, subject: "upload-1", maxAttempts: 3, timeLimit: nil, now: h.clock.now)
            let worker = JobWorker(store: h.store, handlers: [sweep, importer], configuration: testConfiguration(), logger: logger, now: { [clock = h.clock] in clock.now })
            #expect(try await worker.runOnce())
            #expect(try await worker.runOnce())
            let started = lines.all.filter { $0.message == "job started" }.map(\.kind)
            #expect(started == ["upload_import"], "\(lines.all)")
        }
    }
}

/// Log lines at or above a level, with their job kind.
final class RecordedLog: @unchecked Sendable {
    struct Line: Sendable { let message: String; let kind: String? }
    private let lock = NSLock()
    private var lines: [Line] = []
    var all: [Line] { lock.withLock { lines } }
    func append(_ line: Line) { lock.withLock { lines.append(line) } }
}

struct RecordingLogHandler: LogHandler {
    let lines: RecordedLog
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        lines.append(.init(message: event.message.description, kind: event.metadata?["kind"].map { "\($0)" }))
    }
}
