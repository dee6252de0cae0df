import Foundation
import ReelModels
import ReelStore
import ReelStoreSQLite
import ReelTestSupport
import Testing

/// One suite for both stores (SQLite and PostgreSQL): they must give the same answers.
@Suite("JobStore on SQLite and PostgreSQL")
struct JobStoreTests {
    @Test("claims the oldest claimable job first and only the requested kinds", arguments: StoreBackend.allCases)
    func claimOrder(backend: StoreBackend) async throws {
        try await withStore(backend) { (store) async throws in
            let newer = try await store.enqueue(kind: .transcode, postID: nil, maxAttempts: 3, now: t0.addingTimeInterval(2))
            let older = try await store.enqueue(kind: .transcode, postID: nil, maxAttempts: 3, now: t0.addingTimeInterval(1))
            let now = t0.addingTimeInterval(10)
            #expect(try await store.claim(workerID: "w", kinds: [], leaseDuration: 30, now: now) == nil)
            let first = try #require(try await store.claim(workerID: "w", kinds: [.transcode], leaseDuration: 30, now: now))
            #expect(first.id == older.id)
            #expect(first.state == .running && first.leaseOwner == "w" && first.attempts == 1 && first.progress == 0)
            #expect(first.leaseExpiresAt == now.addingTimeInterval(30))
            #expect(try await store.claim(workerID: "w", kinds: [.transcode], leaseDuration: 30, now: now)?.id == newer.id)
            #expect(try await store.claim(workerID: "w", kinds: [.transcode], leaseDuration: 30, now: now) == nil)
        }
    }

    @Test("a job is not claimable before its runAfter", arguments: StoreBackend.allCases)
    func runAfterRespected(backend: StoreBackend) async throws {
        try await withStore(backend) { (store) async throws in
            let job = try await store.enqueue(kind: .transcode, postID: nil, maxAttempts: 3, now: t0)
            #expect(try await store.claim(workerID: "w", kinds: [.transcode], leaseDuration: 30, now: t0.addingTimeInterval(-1)) == nil)
            _ = try #require(try await store.claim(workerID: "w", kinds: [.transcode], leaseDuration: 30, now: t0))
            let retryAt = t0.addingTimeInterval(60)
            try await store.fail(jobID: job.id, workerID: "w", error: "disk full", retryAt: retryAt, now: t0.addingTimeInterval(1))
            let queued = try #require(try await store.job(id: job.id))
            #expect(queued.state == .queued && queued.runAfter == retryAt && queued.lastError == "disk full")
            #expect(queued.leaseOwner == nil && queued.leaseExpiresAt == nil && queued.attempts == 1)
            #expect(try await store.claim(workerID: "w", kinds: [.transcode], leaseDuration: 30, now: t0.addingTimeInterval(59)) == nil)
            let again = try #require(try await store.claim(workerID: "w", kinds: [.transcode], leaseDuration: 30, now: retryAt))
            #expect(again.attempts == 2 && again.lastError == "disk full")
        }
    }

    @Test("an expired lease is reclaimed by another worker; the old owner can no longer act", arguments: StoreBackend.allCases)
    func leaseExpiry(backend: StoreBackend) async throws {
        try await withStore(backend) { (store) async throws in
            let (post, job) = try await store.insertPost(newPost(), maxAttempts: 3, now: t0)
            _ = try #require(try await store.claim(workerID: "a", kinds: [.transcode], leaseDuration: 10, now: t0))
            #expect(try await store.claim(workerID: "b", kinds: [.transcode], leaseDuration: 10, now: t0.addingTimeInterval(5)) == nil)
            #expect(try await store.expiredLeases(now: t0.addingTimeInterval(5)) == [])
            #expect(try await store.expiredLeases(now: t0.addingTimeInterval(11)).map(\.id) == [job.id])

            let stolen = try #require(try await store.claim(workerID: "b", kinds: [.transcode], leaseDuration: 10, now: t0.addingTimeInterval(11)))
            #expect(stolen.id == job.id && stolen.leaseOwner == "b" && stolen.attempts == 2)
            #expect(try await store.heartbeat(jobID: job.id, workerID: "a", progress: 0.5, leaseDuration: 10, now: t0.addingTimeInterval(12)) == false)
            try await store.succeed(jobID: job.id, workerID: "a", now: t0.addingTimeInterval(12))
            try await store.fail(jobID: job.id, workerID: "a", error: "late", retryAt: nil, now: t0.addingTimeInterval(12))
            try await store.release(jobID: job.id, workerID: "a", reason: "late", now: t0.addingTimeInterval(12))
            let unchanged = try #require(try await store.job(id: job.id))
            #expect(unchanged.state == .running && unchanged.leaseOwner == "b" && unchanged.lastError == nil)
            #expect(try await store.post(id: post.id)?.status == .queued)

            try await store.succeed(jobID: job.id, workerID: "b", now: t0.addingTimeInterval(13))
            let done = try #require(try await store.job(id: job.id))
            #expect(done.state == .succeeded && done.progress == 1 && done.leaseOwner == nil)
            #expect(try await store.heartbeat(jobID: job.id, workerID: "b", progress: 1, leaseDuration: 10, now: t0.addingTimeInterval(14)) == false)
        }
    }

    @Test("a job whose last attempt's worker died fails with the reason, and so does its post", arguments: StoreBackend.allCases)
    func attemptsExhausted(backend: StoreBackend) async throws {
        try await withStore(backend) { (store) async throws in
            let (post, job) = try await store.insertPost(newPost(), maxAttempts: 2, now: t0)
            _ = try #require(try await store.claim(workerID: "a", kinds: [.transcode], leaseDuration: 10, now: t0))
            _ = try #require(try await store.claim(workerID: "b", kinds: [.transcode], leaseDuration: 10, now: t0.addingTimeInterval(20)))
            #expect(try await store.claim(workerID: "c", kinds: [.transcode], leaseDuration: 10, now: t0.addingTimeInterval(40)) == nil)
            let failed = try #require(try await store.job(id: job.id))
            let reason = "worker stopped responding during attempt 2 of 2"
            #expect(failed.state == .failed && failed.attempts == 2 && failed.lastError == reason && failed.leaseOwner == nil)
            let failedPost = try #require(try await store.post(id: post.id))
            #expect(failedPost.status == .failed && failedPost.failureReason == reason)
        }
    }

    @Test("heartbeat extends the lease and records clamped progress", arguments: StoreBackend.allCases)
    func heartbeat(backend: StoreBackend) async throws {
        try await withStore(backend) { (store) async throws in
            let job = try await store.enqueue(kind: .transcode, postID: nil, maxAttempts: 3, now: t0)
            _ = try #require(try await store.claim(workerID: "w", kinds: [.transcode], leaseDuration: 10, now: t0))
            #expect(try await store.heartbeat(jobID: job.id, workerID: "w", progress: 0.4, leaseDuration: 10, now: t0.addingTimeInterval(8)))
            var current = try #require(try await store.job(id: job.id))
            #expect(current.progress == 0.4 && current.leaseExpiresAt == t0.addingTimeInterval(18))
            #expect(try await store.claim(workerID: "x", kinds: [.transcode], leaseDuration: 10, now: t0.addingTimeInterval(15)) == nil)
            #expect(try await store.heartbeat(jobID: job.id, workerID: "w", progress: 7, leaseDuration: 10, now: t0.addingTimeInterval(9)))
            current = try #require(try await store.job(id: job.id))
            #expect(current.progress == 1)
        }
    }

    @Test("fail: retry while attempts remain, terminal on the last one or without retryAt", arguments: StoreBackend.allCases)
    func failWithRetry(backend: StoreBackend) async throws {
        try await withStore(backend) { (store) async throws in
            let (post, job) = try await store.insertPost(newPost(), maxAttempts: 2, now: t0)
            _ = try #require(try await store.claim(workerID: "w", kinds: [.transcode], leaseDuration: 10, now: t0))
            try await store.fail(jobID: job.id, workerID: "w", error: "first", retryAt: t0.addingTimeInterval(1), now: t0)
            #expect(try await store.job(id: job.id)?.state == .queued)
            _ = try #require(try await store.claim(workerID: "w", kinds: [.transcode], leaseDuration: 10, now: t0.addingTimeInterval(1)))
            try await store.fail(jobID: job.id, workerID: "w", error: "second", retryAt: t0.addingTimeInterval(2), now: t0.addingTimeInterval(1))
            let failed = try #require(try await store.job(id: job.id))
            #expect(failed.state == .failed && failed.attempts == 2 && failed.lastError == "second")
            #expect(try await store.post(id: post.id)?.failureReason == "second")

            let (other, otherJob) = try await store.insertPost(newPost(folderName: "other"), maxAttempts: 5, now: t0)
            _ = try #require(try await store.claim(workerID: "w", kinds: [.transcode], leaseDuration: 10, now: t0))
            try await store.fail(jobID: otherJob.id, workerID: "w", error: "not a video", retryAt: nil, now: t0)
            #expect(try await store.job(id: otherJob.id)?.state == .failed)
            #expect(try await store.post(id: other.id)?.status == .failed)
        }
    }

    @Test("a failed job never turns a ready post back to failed", arguments: StoreBackend.allCases)
    func readyPostStaysReady(backend: StoreBackend) async throws {
        try await withStore(backend) { (store) async throws in
            let (post, job) = try await store.insertPost(newPost(), maxAttempts: 1, now: t0)
            _ = try #require(try await store.claim(workerID: "w", kinds: [.transcode], leaseDuration: 10, now: t0))
            try await store.publish(postID: post.id, media: sampleMedia, key: nil)
            try await store.fail(jobID: job.id, workerID: "w", error: "died after publishing", retryAt: nil, now: t0)
            #expect(try await store.post(id: post.id)?.status == .ready)
        }
    }

    @Test("release puts the job back at once without counting the attempt", arguments: StoreBackend.allCases)
    func release(backend: StoreBackend) async throws {
        try await withStore(backend) { (store) async throws in
            let job = try await store.enqueue(kind: .transcode, postID: nil, maxAttempts: 1, now: t0)
            _ = try #require(try await store.claim(workerID: "w", kinds: [.transcode], leaseDuration: 10, now: t0))
            try await store.release(jobID: job.id, workerID: "w", reason: "interrupted by shutdown", now: t0.addingTimeInterval(1))
            let released = try #require(try await store.job(id: job.id))
            #expect(released.state == .queued && released.attempts == 0 && released.leaseOwner == nil)
            #expect(released.lastError == "interrupted by shutdown")
            let again = try #require(try await store.claim(workerID: "v", kinds: [.transcode], leaseDuration: 10, now: t0.addingTimeInterval(1)))
            #expect(again.attempts == 1)
        }
    }

    @Test("jobs are listed newest first, filtered by state", arguments: StoreBackend.allCases)
    func listing(backend: StoreBackend) async throws {
        try await withStore(backend) { (store) async throws in
            let a = try await store.enqueue(kind: .transcode, postID: nil, maxAttempts: 3, now: t0)
            let b = try await store.enqueue(kind: .transcode, postID: nil, maxAttempts: 3, now: t0)
            _ = try await store.claim(workerID: "w", kinds: [.transcode], leaseDuration: 10, now: t0)
            #expect(try await store.jobs(states: nil, limit: 10).map(\.id) == [b.id, a.id])
            #expect(try await store.jobs(states: [.running], limit: 10).map(\.id) == [a.id])
            #expect(try await store.jobs(states: [.queued, .succeeded], limit: 10).map(\.id) == [b.id])
            #expect(try await store.jobs(states: [], limit: 10) == [])
        }
    }
}
