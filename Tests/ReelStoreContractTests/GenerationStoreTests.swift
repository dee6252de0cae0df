import Foundation
import ReelModels
import ReelStore
import ReelStoreSQLite
import ReelTestSupport
import Testing

/// One suite for both stores (SQLite and PostgreSQL): they must give the same answers.
@Suite("Generation store on SQLite and PostgreSQL: quota, its job, saving steps")
struct GenerationStoreTests {
    @Test("the daily limit counts since the day start; each generation gets one job; a step never overwrites a discard",
          arguments: StoreBackend.allCases)
    func quotaJobAndSteps(backend: StoreBackend) async throws {
        try await withStore(backend) { (store) async throws in
            let t0 = Date(timeIntervalSince1970: 1_800_000_000)
            let user = try await store.createUser(name: "u", role: .member, passwordHash: "h", now: t0)
            let new = NewGeneration(userID: user.id, provider: "local", prompt: "p", style: "aurora", seconds: 4, width: 720, height: 1280)
            let limits = GenerationJobLimits(maxAttempts: 4, timeLimit: 60)
            _ = try await store.createGeneration(new, job: limits, dailyLimit: 2, dayStart: t0, now: t0)
            _ = try await store.createGeneration(new, job: limits, dailyLimit: 2, dayStart: t0, now: t0)
            await #expect(throws: StoreError.conflict("the daily limit of 2 generations is used up")) {
                _ = try await store.createGeneration(new, job: limits, dailyLimit: 2, dayStart: t0, now: t0)
            }
            #expect(try await store.jobs(states: nil, limit: 10).count == 2, "a refused generation queues no job")
            let tomorrow = t0.addingTimeInterval(86_400)
            let third = try await store.createGeneration(new, job: limits, dailyLimit: 2, dayStart: tomorrow, now: tomorrow)
            let job = try #require(try await store.job(kind: .generation, subject: String(third.id)))
            #expect(job.state == .queued && job.maxAttempts == 4 && job.deadlineAt == tomorrow.addingTimeInterval(60) && job.postID == nil)
            #expect(APIJob(job: job).generationId == third.id)

            var running = third
            running.state = .running
            #expect(try await store.saveGenerationStep(running, now: tomorrow)?.state == .running)
            var discarded = third
            discarded.state = .discarded
            _ = try await store.saveGeneration(discarded, now: tomorrow)
            #expect(try await store.saveGenerationStep(running, now: tomorrow) == nil)
            #expect(try await store.generation(id: third.id)?.state == .discarded)
            #expect(try await store.generations(userID: user.id, limit: 10).count == 3)
        }
    }
}
