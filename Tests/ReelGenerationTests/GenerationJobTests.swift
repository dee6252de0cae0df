import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdTesting
import ReelGenerationLocal
import ReelJobs
import Logging
import ReelGeneration
import ReelGenerationOpenAI
import ReelModels
import ReelPipeline
import ReelProcess
import ReelStorage
import ReelStore
import ReelStoreSQLite
import Testing
import ReelTestFiles

/// A clock the test moves by hand.
final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var value = Date(timeIntervalSince1970: 1_800_000_000)
    var now: Date { lock.withLock { value } }
    func advance(_ seconds: Double) { lock.withLock { value = value.addingTimeInterval(seconds) } }
}

@Suite("Generation jobs: submit, poll with back-off, download, fail, time limit — on the one job queue")
struct GenerationJobTests {
    struct Harness {
        let store: SQLiteStore
        let worker: JobWorker
        let clock: ManualClock
        let files: GenerationFiles
        let user: User
        let state: FakeOpenAIVideoState
        let limits: GenerationJobLimits

        func create(_ prompt: String, provider: String = "openai") async throws -> Generation {
            try await store.createGeneration(
                NewGeneration(userID: user.id, provider: provider, prompt: prompt, style: "aurora", seconds: 4, width: 720, height: 1280),
                job: limits, dailyLimit: 100, dayStart: clock.now.addingTimeInterval(-86_400), now: clock.now
            )
        }

        func job(_ id: Int64) async throws -> Job {
            try #require(try await store.job(kind: .generation, subject: String(id)))
        }

        /// Runs every due job, then moves the clock to when the generation's job is due again.
        func drive(_ id: Int64, until done: (Generation) -> Bool, maxSteps: Int = 40) async throws -> Generation {
            for _ in 0..<maxSteps {
                while try await worker.runOnce() {}
                let generation = try #require(try await store.generation(id: id))
                if done(generation) { return generation }
                let job = try await job(id)
                clock.advance(max(0.001, job.runAfter.timeIntervalSince(clock.now)))
            }
            return try #require(try await store.generation(id: id))
        }
    }

    func withHarness(
        schedule: PollSchedule = PollSchedule(initial: 1, factor: 2, maximum: 8), limits: GenerationJobLimits = GenerationJobLimits(timeLimit: 600),
        _ body: @Sendable (Harness) async throws -> Void
    ) async throws {
        try await FakeOpenAIVideoServer.withLive { baseURL, state in
            let root = TemporaryFolder.fresh("gen")
            defer { try? FileManager.default.removeItem(at: root) }
            let store = try SQLiteStore.inMemory()
            let clock = ManualClock()
            let user = try await store.createUser(name: "maker", role: .member, passwordHash: "h", now: clock.now)
            let provider = OpenAIVideoProvider(client: .shared, apiKey: FakeOpenAIVideoServer.apiKey, baseURL: baseURL, timeoutSeconds: 5)
            let files = GenerationFiles(root: root)
            let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
            let handler = GenerationJobHandler(
                store: store, providers: [provider, LocalCardProvider(runner: FoundationProcessRunner(), workRoot: root.appendingPathComponent("work"))],
                files: files, step: GenerationStep(schedule: schedule), now: { clock.now }, logger: logger
            )
            let worker = JobWorker(
                store: store, handlers: [handler],
                configuration: JobWorkerConfiguration(workerID: "test-node", retry: RetryPolicy(base: 1, factor: 2, maxDelay: 8)),
                logger: logger, now: { clock.now }
            )
            try await body(Harness(store: store, worker: worker, clock: clock, files: files, user: user, state: state, limits: limits))
        }
    }

    @Test("a generation goes queued → running (progress) → ready, with its clip on disk and polls backing off")
    func happyPath() async throws {
        try await withHarness { h in
            let created = try await h.create("a lighthouse at night")
            #expect(created.state == .queued)
            #expect(try await h.job(created.id).state == .queued)
            #expect(try await h.worker.runOnce())
            let running = try #require(try await h.store.generation(id: created.id))
            #expect(running.state == .running && running.providerJobID == "video_1" && running.attempts == 1)
            let polled = try await h.job(created.id)
            #expect(polled.state == .queued && polled.runAfter == h.clock.now.addingTimeInterval(1) && polled.attempts == 0)
            #expect(try await !h.worker.runOnce(), "nothing is due before the first poll time")
            let ready = try await h.drive(created.id) { $0.state == .ready }
            #expect(ready.state == .ready && ready.progress == 1)
            #expect(try Data(contentsOf: h.files.result(created.id)) == FakeOpenAIVideoState.content)
            let job = try await h.job(created.id)
            #expect(job.state == .succeeded && job.attempts <= 1, "polls that went well use no attempts")
        }
    }

    @Test("moderation and provider failures end in failed with a reason a person can read")
    func failures() async throws {
        try await withHarness { h in
            let refused = try await h.create("something blocked at create")
            let moderated = try await h.create("a forbidden scene")
            let done = { (g: Generation) in g.state == .failed || g.state == .ready }
            let first = try await h.drive(refused.id, until: done)
            #expect(first.state == .failed && first.failureReason == "The provider refused this prompt: This prompt violates our usage policies.")
            let second = try await h.drive(moderated.id, until: done)
            #expect(second.state == .failed && second.failureReason == "The provider refused this prompt: Your request was blocked by our moderation system.")
            #expect(!FileManager.default.fileExists(atPath: h.files.result(moderated.id).path))
            let job = try await h.job(moderated.id)
            #expect(job.state == .failed && job.lastError == second.failureReason)
        }
    }

    @Test("a provider that keeps erroring is retried with the queue's back-off, then fails; a slow one hits the time limit")
    func retriesAndDeadline() async throws {
        try await withHarness(limits: GenerationJobLimits(maxAttempts: 3, timeLimit: 5)) { h in
            let overloaded = try await h.create("overloaded")
            let failed = try await h.drive(overloaded.id) { $0.state == .failed }
            #expect(failed.attempts == 3)
            let requests = await h.state.requests.filter { $0.hasPrefix("POST") }
            #expect(requests.count == 3)
            #expect(try await h.job(overloaded.id).attempts == 3)

            // Never completes within the 5 s time limit: polled at +1, +2, +4 … then failed.
            let slow = try await h.create("slow lighthouse")
            #expect(try await h.worker.runOnce())
            h.clock.advance(6)
            #expect(try await !h.worker.runOnce(), "a job past its time limit is failed, not run")
            let timedOut = try #require(try await h.store.generation(id: slow.id))
            #expect(timedOut.state == .failed && timedOut.failureReason == "not finished within 5 seconds, so it was stopped")
            #expect(try await h.job(slow.id).state == .failed)
        }
    }

    @Test("an unknown provider fails the generation instead of looping on it")
    func unknownProvider() async throws {
        try await withHarness { h in
            let generation = try await h.create("anything", provider: "retired")
            #expect(try await h.worker.runOnce())
            let failed = try #require(try await h.store.generation(id: generation.id))
            #expect(failed.state == .failed && failed.failureReason == "the provider retired is not available on this server")
            #expect(try await h.job(generation.id).attempts == 1)
        }
    }

    @Test("cancelling the job fails the generation; retrying it submits again")
    func cancelAndRetry() async throws {
        try await withHarness { h in
            let generation = try await h.create("a lighthouse at dawn")
            #expect(try await h.worker.runOnce())
            let job = try await h.job(generation.id)
            _ = try await h.store.cancel(jobID: job.id, reason: "cancelled by maker", now: h.clock.now)
            let cancelled = try #require(try await h.store.generation(id: generation.id))
            #expect(cancelled.state == .failed && cancelled.failureReason == "cancelled by maker")
            _ = try await h.store.retry(jobID: job.id, now: h.clock.now)
            let requeued = try #require(try await h.store.generation(id: generation.id))
            #expect(requeued.state == .queued && requeued.providerJobID == nil)
            let ready = try await h.drive(generation.id) { $0.state == .ready || $0.state == .failed }
            #expect(ready.state == .ready && ready.attempts == 2)
        }
    }

    @Test("a generation discarded while its job waits is left discarded; its job ends")
    func discardedMeanwhile() async throws {
        try await withHarness { h in
            let generation = try await h.create("a lighthouse in fog")
            #expect(try await h.worker.runOnce())
            var discarded = try #require(try await h.store.generation(id: generation.id))
            discarded.state = .discarded
            _ = try await h.store.saveGeneration(discarded, now: h.clock.now)
            h.clock.advance(1)
            #expect(try await h.worker.runOnce())
            #expect(try await h.store.generation(id: generation.id)?.state == .discarded)
            #expect(try await h.job(generation.id).state == .succeeded)
        }
    }

    @Test("the local provider renders a real clip through the same job")
    func local() async throws {
        try await withHarness { h in
            let generation = try await h.create("Local cards are honest", provider: "local")
            var current = generation
            let deadline = Date().addingTimeInterval(60)
            while current.state != .ready && current.state != .failed && Date() < deadline {
                while try await h.worker.runOnce() {}
                try await Task.sleep(for: .milliseconds(100))
                h.clock.advance(1)
                current = try #require(try await h.store.generation(id: generation.id))
            }
            #expect(current.state == .ready, "\(current.failureReason ?? "")")
            let size = try FileManager.default.attributesOfItem(atPath: h.files.result(generation.id).path)[.size] as? Int ?? 0
            #expect(size > 10_000)
        }
    }
}
