import Foundation
import ReelJobs
import ReelModels
import ReelStore
import ReelStoreSQLite
import ReelTestSupport
import Testing

/// The queue's rules hold for every kind of job, not only transcodes: run again later
/// (polls), retry with backoff, the time limit, cancel and retry. Driven step by step with a
/// clock the test moves, so nothing here waits on real time.
@Suite("One queue for every kind: run again, retry with backoff, time limit, cancel, retry")
struct JobKindsTests {
    /// Records what each call returned; `script` gives one answer per call, the last repeats.
    struct ScriptedHandler: JobHandler {
        enum Answer: Sendable { case finish, again(TimeInterval), transient(String), invalid(String) }
        let kind: JobKind
        let script: [Answer]
        let calls: CallCounter

        func run(_ job: Job, context: JobContext) async throws -> JobOutcome {
            let call = await calls.next()
            await context.reportProgress(Double(call) / 10)
            switch script[min(call, script.count - 1)] {
            case .finish: return .finished
            case .again(let seconds): return .runAgain(after: seconds)
            case .transient(let message): throw JobFailure.transient(message)
            case .invalid(let message): throw JobFailure.invalidInput(message)
            }
        }
    }

    actor CallCounter {
        private(set) var count = 0
        func next() -> Int {
            defer { count += 1 }
            return count
        }
    }

    final class TestClock: @unchecked Sendable {
        private let lock = NSLock()
        private var value = Date(timeIntervalSince1970: 1_900_000_000)
        var now: Date { lock.withLock { value } }
        func advance(_ seconds: TimeInterval) { lock.withLock { value = value.addingTimeInterval(seconds) } }
    }

    struct Harness {
        let database: TemporaryDatabase
        let clock = TestClock()
        let calls = CallCounter()
        let kind: JobKind

        var store: SQLiteStore { database.store }

        func worker(_ script: [ScriptedHandler.Answer]) -> JobWorker {
            var configuration = testConfiguration()
            configuration.retry = RetryPolicy(base: 10, factor: 2, maxDelay: 100)
            return JobWorker(
                store: store, handlers: [ScriptedHandler(kind: kind, script: script, calls: calls)], configuration: configuration,
                logger: quietLogger, now: { [clock] in clock.now }
            )
        }

        func enqueue(maxAttempts: Int = 3, timeLimit: TimeInterval? = nil) async throws -> Job {
            try await store.enqueue(kind: kind, subject: "subject-1", maxAttempts: maxAttempts, timeLimit: timeLimit, now: clock.now)
        }

        func reload(_ job: Job) async throws -> Job { try #require(try await store.job(id: job.id)) }
    }

    func withHarness(_ kind: JobKind, _ body: (Harness) async throws -> Void) async throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        try await body(Harness(database: database, kind: kind))
    }

    @Test("recording the same work twice gives the one job", arguments: JobKind.allCases)
    func onceperSubject(kind: JobKind) async throws {
        try await withHarness(kind) { h in
            let first = try await h.enqueue()
            let again = try await h.store.enqueue(kind: kind, subject: "subject-1", maxAttempts: 9, timeLimit: 5, now: h.clock.now)
            #expect(again == first && again.maxAttempts == 3 && again.deadlineAt == nil)
            #expect(try await h.store.job(kind: kind, subject: "subject-1") == first)
            let other = try await h.store.enqueue(kind: kind, subject: "subject-2", maxAttempts: 3, timeLimit: nil, now: h.clock.now)
            #expect(other.id != first.id && other.subject == "subject-2")
        }
    }

    @Test("run again: queued until the delay passes, no attempt used, progress kept; then finished", arguments: JobKind.allCases)
    func runAgain(kind: JobKind) async throws {
        try await withHarness(kind) { h in
            let worker = h.worker([.again(4), .again(4), .finish])
            let job = try await h.enqueue(maxAttempts: 1)
            #expect(try await worker.runOnce())
            let waiting = try await h.reload(job)
            #expect(waiting.state == .queued && waiting.attempts == 0 && waiting.runAfter == h.clock.now.addingTimeInterval(4))
            #expect(waiting.progress == 0, "the first call reported 0")
            #expect(try await !worker.runOnce(), "not due before its delay")
            h.clock.advance(4)
            #expect(try await worker.runOnce())
            #expect(try await h.reload(job).progress == 0.1)
            h.clock.advance(4)
            #expect(try await worker.runOnce())
            let done = try await h.reload(job)
            let calls = await h.calls.count
            #expect(done.state == .succeeded && done.attempts == 1 && calls == 3)
        }
    }

    @Test("transient failures back off by the retry policy and fail for good when attempts run out", arguments: JobKind.allCases)
    func retriesWithBackoff(kind: JobKind) async throws {
        try await withHarness(kind) { h in
            let worker = h.worker([.transient("provider overloaded")])
            let job = try await h.enqueue(maxAttempts: 3)
            #expect(try await worker.runOnce())
            var current = try await h.reload(job)
            #expect(current.state == .queued && current.runAfter == h.clock.now.addingTimeInterval(10) && current.lastError == "provider overloaded")
            h.clock.advance(10)
            #expect(try await worker.runOnce())
            current = try await h.reload(job)
            #expect(current.runAfter == h.clock.now.addingTimeInterval(20))
            h.clock.advance(20)
            #expect(try await worker.runOnce())
            current = try await h.reload(job)
            #expect(current.state == .failed && current.attempts == 3 && current.lastError == "provider overloaded")
            h.clock.advance(1000)
            #expect(try await !worker.runOnce(), "a failed job is never claimed again")
        }
    }

    @Test("a job that keeps running again fails at its time limit; a retry starts the limit afresh", arguments: JobKind.allCases)
    func timeLimit(kind: JobKind) async throws {
        try await withHarness(kind) { h in
            let worker = h.worker([.again(30)])
            let job = try await h.enqueue(timeLimit: 60)
            #expect(job.deadlineAt == h.clock.now.addingTimeInterval(60))
            #expect(try await worker.runOnce())
            h.clock.advance(30)
            #expect(try await worker.runOnce())
            h.clock.advance(30)
            #expect(try await !worker.runOnce(), "past its time limit the job is failed instead of run")
            let failed = try await h.reload(job)
            #expect(failed.state == .failed && failed.lastError == "not finished within 60 seconds, so it was stopped")
            #expect(await h.calls.count == 2)

            let retried = try #require(try await h.store.retry(jobID: job.id, now: h.clock.now))
            #expect(retried.state == .queued && retried.attempts == 0 && retried.deadlineAt == h.clock.now.addingTimeInterval(60))
            #expect(try await worker.runOnce())
            #expect(await h.calls.count == 3)
        }
    }

    @Test("invalid input fails at once; cancel ends a waiting job; retry queues it with fresh attempts", arguments: JobKind.allCases)
    func invalidCancelRetry(kind: JobKind) async throws {
        try await withHarness(kind) { h in
            let invalid = h.worker([.invalid("the provider refused this prompt")])
            let job = try await h.enqueue(maxAttempts: 3)
            #expect(try await invalid.runOnce())
            let failed = try await h.reload(job)
            #expect(failed.state == .failed && failed.attempts == 1 && failed.lastError == "the provider refused this prompt")

            let retried = try #require(try await h.store.retry(jobID: job.id, now: h.clock.now))
            #expect(retried.state == .queued && retried.attempts == 0)
            let polling = h.worker([.again(5)])
            #expect(try await polling.runOnce())
            let cancelled = try #require(try await h.store.cancel(jobID: job.id, reason: "cancelled by ana", now: h.clock.now))
            #expect(cancelled.state == .failed && cancelled.lastError == "cancelled by ana")
            h.clock.advance(5)
            #expect(try await !polling.runOnce(), "a cancelled job does not run again")
        }
    }
}
