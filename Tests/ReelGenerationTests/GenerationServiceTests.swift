import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import ReelGeneration
import ReelGenerationOpenAI
import ReelModels
import ReelPipeline
import ReelStore
import ReelStoreSQLite
import Testing

/// A clock the test moves by hand.
final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var value = Date(timeIntervalSince1970: 1_800_000_000)
    var now: Date { lock.withLock { value } }
    func advance(_ seconds: Double) { lock.withLock { value = value.addingTimeInterval(seconds) } }
}

@Suite("Generation service: submit, poll with back-off, download, fail, quota")
struct GenerationServiceTests {
    struct Harness {
        let store: SQLiteStore
        let service: GenerationService
        let clock: ManualClock
        let files: GenerationFiles
        let user: User
        let state: FakeOpenAIVideoState

        func create(_ prompt: String, provider: String = "openai") async throws -> Generation {
            try await store.createGeneration(
                NewGeneration(userID: user.id, provider: provider, prompt: prompt, style: "aurora", seconds: 4, width: 720, height: 1280),
                dailyLimit: 100, dayStart: clock.now.addingTimeInterval(-86_400), now: clock.now
            )
        }

        /// Runs the service until nothing is due, then moves the clock to the next due time.
        func drive(_ id: Int64, until done: (Generation) -> Bool, maxSteps: Int = 40) async throws -> Generation {
            for _ in 0..<maxSteps {
                while try await service.runOnce() {}
                let generation = try #require(try await store.generation(id: id))
                if done(generation) { return generation }
                clock.advance(max(0.001, generation.nextPollAt.timeIntervalSince(clock.now)))
            }
            return try #require(try await store.generation(id: id))
        }
    }

    func withHarness(schedule: PollSchedule = PollSchedule(initial: 1, factor: 2, maximum: 8, deadline: 600), _ body: @Sendable (Harness) async throws -> Void) async throws {
        try await FakeOpenAIVideoServer.withLive { baseURL, state in
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("gen-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: root) }
            let store = try SQLiteStore.inMemory()
            let clock = ManualClock()
            let user = try await store.createUser(name: "maker", role: .member, passwordHash: "h", now: clock.now)
            let provider = OpenAIVideoProvider(client: .shared, apiKey: FakeOpenAIVideoServer.apiKey, baseURL: baseURL, timeoutSeconds: 5)
            let files = GenerationFiles(root: root)
            let service = GenerationService(
                store: store, providers: [provider, LocalCardProvider(runner: FoundationProcessRunner(), workRoot: root.appendingPathComponent("work"))],
                files: files, step: GenerationStep(schedule: schedule), owner: "test-node", now: { clock.now }, logger: Logger(label: "test")
            )
            try await body(Harness(store: store, service: service, clock: clock, files: files, user: user, state: state))
        }
    }

    @Test("a generation goes queued → running (progress) → ready, with its clip on disk and polls backing off")
    func happyPath() async throws {
        try await withHarness { h in
            let created = try await h.create("a lighthouse at night")
            #expect(created.state == .queued)
            #expect(try await h.service.runOnce())
            let running = try #require(try await h.store.generation(id: created.id))
            #expect(running.state == .running && running.providerJobID == "video_1" && running.attempts == 1)
            #expect(try await !h.service.runOnce(), "nothing is due before the first poll time")
            let ready = try await h.drive(created.id) { $0.state == .ready }
            #expect(ready.state == .ready && ready.progress == 1)
            #expect(try Data(contentsOf: h.files.result(created.id)) == FakeOpenAIVideoState.content)
            #expect(ready.leaseOwner == nil)
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
        }
    }

    @Test("a provider that keeps erroring is retried with back-off, then fails; a slow one times out")
    func retriesAndDeadline() async throws {
        try await withHarness(schedule: PollSchedule(initial: 1, factor: 2, maximum: 8, deadline: 5)) { h in
            let overloaded = try await h.create("overloaded")
            let failed = try await h.drive(overloaded.id) { $0.state == .failed }
            #expect(failed.attempts == 3)
            let requests = await h.state.requests.filter { $0.hasPrefix("POST") }
            #expect(requests.count == 3)

            // Never completes within the 5 s deadline: polled at +1, +2, +4 … then failed.
            let slow = try await h.create("slow lighthouse")
            #expect(try await h.service.runOnce())
            h.clock.advance(6)
            #expect(try await h.service.runOnce())
            let timedOut = try #require(try await h.store.generation(id: slow.id))
            #expect(timedOut.state == .failed && timedOut.failureReason == "the provider did not finish within 5 seconds")
        }
    }

    @Test("an unknown provider fails the generation instead of looping on it")
    func unknownProvider() async throws {
        try await withHarness { h in
            let generation = try await h.create("anything", provider: "retired")
            #expect(try await h.service.runOnce())
            let failed = try #require(try await h.store.generation(id: generation.id))
            #expect(failed.state == .failed && failed.failureReason == "the provider retired is not available on this server")
        }
    }

    @Test("the local provider renders a real clip through the same service")
    func local() async throws {
        try await withHarness { h in
            let generation = try await h.create("Local cards are honest", provider: "local")
            var current = generation
            let deadline = Date().addingTimeInterval(60)
            while current.state != .ready && current.state != .failed && Date() < deadline {
                while try await h.service.runOnce() {}
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

@Suite("SQLite generation store: quota and leases")
struct GenerationStoreTests {
    @Test("the daily limit counts since the day start, and a lease is exclusive until it expires")
    func quotaAndLease() async throws {
        let store = try SQLiteStore.inMemory()
        let t0 = Date(timeIntervalSince1970: 1_800_000_000)
        let user = try await store.createUser(name: "u", role: .member, passwordHash: "h", now: t0)
        let new = NewGeneration(userID: user.id, provider: "local", prompt: "p", style: "aurora", seconds: 4, width: 720, height: 1280)
        _ = try await store.createGeneration(new, dailyLimit: 2, dayStart: t0, now: t0)
        _ = try await store.createGeneration(new, dailyLimit: 2, dayStart: t0, now: t0)
        await #expect(throws: StoreError.conflict("the daily limit of 2 generations is used up")) {
            _ = try await store.createGeneration(new, dailyLimit: 2, dayStart: t0, now: t0)
        }
        let tomorrow = t0.addingTimeInterval(86_400)
        let third = try await store.createGeneration(new, dailyLimit: 2, dayStart: tomorrow, now: tomorrow)

        let a = try #require(try await store.claimDueGeneration(owner: "a", now: tomorrow, leaseSeconds: 60))
        let b = try #require(try await store.claimDueGeneration(owner: "b", now: tomorrow, leaseSeconds: 60))
        #expect(a.id != b.id)
        let c = try #require(try await store.claimDueGeneration(owner: "c", now: tomorrow, leaseSeconds: 60))
        #expect(Set([a.id, b.id, c.id]).count == 3 && [a.id, b.id, c.id].contains(third.id))
        #expect(try await store.claimDueGeneration(owner: "d", now: tomorrow, leaseSeconds: 60) == nil)
        await #expect(throws: StoreError.self) { _ = try await store.saveGeneration(a, owner: "b", now: tomorrow) }
        await #expect(throws: StoreError.self) { _ = try await store.saveGeneration(a, owner: nil, now: tomorrow) }
        let expired = try #require(try await store.claimDueGeneration(owner: "d", now: tomorrow.addingTimeInterval(61), leaseSeconds: 60))
        #expect([a.id, b.id, c.id].contains(expired.id))
        var done = expired
        done.state = .ready
        let saved = try await store.saveGeneration(done, owner: "d", now: tomorrow.addingTimeInterval(62))
        #expect(saved.state == .ready && saved.leaseOwner == nil)
        #expect(try await store.generations(userID: user.id, limit: 10).count == 3)
    }
}
