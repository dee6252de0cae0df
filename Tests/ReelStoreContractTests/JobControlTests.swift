import Foundation
import ReelModels
import ReelStore
import ReelStoreSQLite
import ReelTestSupport
import Testing

@Suite("Cancelling and retrying jobs, uploads' posts, on SQLite and PostgreSQL")
struct JobControlTests {
    @Test("cancel ends a running job and its post; the worker's heartbeat then says the lease is lost", arguments: StoreBackend.allCases)
    func cancelRunning(backend: StoreBackend) async throws {
        try await withStore(backend) { (store) async throws in
            let (post, job) = try await store.insertPost(newPost(), maxAttempts: 3, now: t0)
            let claimed = try #require(try await store.claim(workerID: "w", kinds: [.transcode], leaseDuration: 30, now: t0))
            #expect(claimed.startedAt == t0)
            let cancelled = try #require(try await store.cancel(jobID: job.id, reason: "cancelled by ana", now: t0.addingTimeInterval(1)))
            #expect(cancelled.state == .failed && cancelled.lastError == "cancelled by ana" && cancelled.leaseOwner == nil)
            #expect(try await store.post(id: post.id)?.status == .failed)
            #expect(try await store.post(id: post.id)?.failureReason == "cancelled by ana")
            #expect(try await store.heartbeat(jobID: job.id, workerID: "w", progress: 0.5, leaseDuration: 30, now: t0.addingTimeInterval(2)) == false)
            // Ended jobs stay as they are; unknown ones are nil.
            #expect(try await store.cancel(jobID: job.id, reason: "again", now: t0)?.lastError == "cancelled by ana")
            #expect(try await store.cancel(jobID: 9_999, reason: "x", now: t0) == nil)
        }
    }

    @Test("retry puts a failed job back with fresh attempts and its post back to queued", arguments: StoreBackend.allCases)
    func retryFailed(backend: StoreBackend) async throws {
        try await withStore(backend) { (store) async throws in
            let (post, job) = try await store.insertPost(newPost(), maxAttempts: 1, now: t0)
            _ = try #require(try await store.claim(workerID: "w", kinds: [.transcode], leaseDuration: 30, now: t0))
            try await store.fail(jobID: job.id, workerID: "w", error: "ffmpeg crashed", retryAt: t0, now: t0)
            #expect(try await store.job(id: job.id)?.state == .failed)
            let retried = try #require(try await store.retry(jobID: job.id, now: t0.addingTimeInterval(5)))
            #expect(retried.state == .queued && retried.attempts == 0 && retried.startedAt == nil)
            #expect(retried.runAfter == t0.addingTimeInterval(5))
            let queuedPost = try #require(try await store.post(id: post.id))
            #expect(queuedPost.status == .queued && queuedPost.failureReason == nil)
            #expect(try await store.claim(workerID: "w2", kinds: [.transcode], leaseDuration: 30, now: t0.addingTimeInterval(5))?.id == job.id)
            // A job that has not failed is returned unchanged.
            #expect(try await store.retry(jobID: job.id, now: t0)?.state == .running)
        }
    }

    @Test("an upload's creator and preparation are stored; finishing the preparation swaps the source once", arguments: StoreBackend.allCases)
    func preparation(backend: StoreBackend) async throws {
        try await withStore(backend) { (store) async throws in
            let user = try await store.createUser(name: "ana", role: .member, passwordHash: "x", now: t0)
            var upload = newPost(sources: ["sources/original.mov", "sources/abc.en.vtt"])
            upload.createdBy = user.id
            upload.preparation = .compress
            let (post, _) = try await store.insertPost(upload, maxAttempts: 3, now: t0)
            #expect(post.createdBy == user.id && post.preparation == .compress)
            #expect(try await store.finishSourcePreparation(postID: post.id, sourcePath: "sources/small.mp4") == "sources/original.mov")
            #expect(try await store.sourcePaths(postID: post.id) == ["sources/small.mp4", "sources/abc.en.vtt"], "subtitles stay")
            #expect(try await store.post(id: post.id)?.preparation == .asIs)
        }
    }
}
