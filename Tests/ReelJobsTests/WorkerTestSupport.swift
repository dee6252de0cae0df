import Foundation
import Logging
import ReelJobs
import ReelModels
import ReelStore
import ReelStoreSQLite
import ReelTestSupport
import Testing

extension TemporaryDatabase {
    /// Inserts a post (and so its transcode job); returns the job.
    func enqueuePost(_ name: String, maxAttempts: Int = 3) async throws -> Job {
        let post = NewPost(
            kind: .video, folderName: name, metadata: PostMetadata(), contentHash: UUID().uuidString,
            sourcePaths: ["sources/\(name).mp4"], dateAdded: Date()
        )
        return try await store.insertPost(post, maxAttempts: maxAttempts, now: Date()).1
    }
}

let quietLogger = Logger(label: "reeljobs-tests") { _ in SwiftLogNoOpLogHandler() }

/// Settings that keep tests fast: short polls and progress writes, tiny backoff.
func testConfiguration(
    concurrency: Int = 1, leaseDuration: TimeInterval = 5, heartbeatInterval: TimeInterval = 0.5
) -> JobWorkerConfiguration {
    JobWorkerConfiguration(
        workerID: "test-worker-\(UUID().uuidString.prefix(8))", concurrency: concurrency, leaseDuration: leaseDuration,
        heartbeatInterval: heartbeatInterval, pollInterval: 0.02, progressInterval: 0.05,
        retry: RetryPolicy(base: 0.05, factor: 2, maxDelay: 1)
    )
}

/// Polls `condition` every 20 ms; records an issue and throws if it is not met within `timeout`
/// (generous: five trivial jobs once took over 15 s while the whole suite ran on a loaded machine).
func waitUntil(
    _ what: String, timeout: TimeInterval = 60, sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () async throws -> Bool
) async throws {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if try await condition() { return }
        try await Task.sleep(for: .milliseconds(20))
    }
    Issue.record("timed out waiting for \(what)", sourceLocation: sourceLocation)
    throw CancellationError()
}

/// Runs the worker while `body` runs, then stops it by cancelling (leases are left as they are).
func whileRunning<T: Sendable>(_ worker: JobWorker, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask {
            try await worker.run()
            return nil
        }
        group.addTask { try await body() }
        defer { group.cancelAll() }
        while let result = try await group.next() {
            if let result { return result }
        }
        throw CancellationError()
    }
}

/// Thread-safe notes the fake handlers keep for the test to read.
actor Journal {
    private(set) var runs: [Int64: Int] = [:]
    private(set) var intervals: [(start: Date, end: Date)] = []
    private(set) var cancelled: Set<Int64> = []
    private(set) var started: Set<Int64> = []
    private(set) var attemptStarts: [Date] = []

    func start(_ id: Int64) {
        runs[id, default: 0] += 1
        started.insert(id)
        attemptStarts.append(Date())
    }
    func finish(start: Date, end: Date) { intervals.append((start, end)) }
    func cancel(_ id: Int64) { cancelled.insert(id) }
    var startedCount: Int { started.count }
}

/// Records each job it runs and succeeds.
struct RecordingHandler: JobHandler {
    let kind = JobKind.transcode
    let journal: Journal
    func run(_ job: Job, context: JobContext) async throws -> JobOutcome {
        await journal.start(job.id)
        return .finished
    }
}

/// Always rejects its input.
struct InvalidInputHandler: JobHandler {
    let kind = JobKind.transcode
    func run(_ job: Job, context: JobContext) async throws -> JobOutcome {
        throw JobFailure.invalidInput("not a video: no video stream")
    }
}

/// Fails transiently on the first two attempts, then succeeds.
struct FlakyHandler: JobHandler {
    let kind = JobKind.transcode
    let journal: Journal
    func run(_ job: Job, context: JobContext) async throws -> JobOutcome {
        await journal.start(job.id)
        if context.attempt < 3 { throw JobFailure.transient("encoder crashed (attempt \(context.attempt))") }
        return .finished
    }
}

/// Reports `progress`, then waits until cancelled or until `release` is opened.
struct SlowHandler: JobHandler {
    let kind = JobKind.transcode
    let journal: Journal
    let release: Gate
    var progress = 0.5
    func run(_ job: Job, context: JobContext) async throws -> JobOutcome {
        await journal.start(job.id)
        await context.reportProgress(progress)
        do {
            while await !release.isOpen { try await Task.sleep(for: .milliseconds(10)) }
        } catch {
            await journal.cancel(job.id)
            throw error
        }
        return .finished
    }
}

/// Holds each job until `expected` jobs run at once (or 10 s pass), recording when it ran.
struct BarrierHandler: JobHandler {
    let kind = JobKind.transcode
    let journal: Journal
    let expected: Int
    func run(_ job: Job, context: JobContext) async throws -> JobOutcome {
        let start = Date()
        await journal.start(job.id)
        let deadline = start.addingTimeInterval(10)
        while await journal.startedCount < expected, Date() < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        await journal.finish(start: start, end: Date())
        return .finished
    }
}

actor Gate {
    private(set) var isOpen = false
    func open() { isOpen = true }
}
