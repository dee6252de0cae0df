import Foundation
import ReelModels
import ReelStore
import ReelStoreSQLite
import ReelTestSupport
import Testing

/// One suite for both stores (SQLite and PostgreSQL): they must give the same answers (opening
/// a SQLite file and its integrity check are SQLite's own: ReelStoreSQLiteTests).
@Suite("LibraryStore on SQLite and PostgreSQL")
struct LibraryStoreTests {
    @Test("a post is found by id, folder name and content hash", arguments: StoreBackend.allCases)
    func insertAndFetch(backend: StoreBackend) async throws {
        try await withStore(backend) { (store) async throws in
            let (post, job) = try await store.insertPost(newPost(contentHash: "abc"), maxAttempts: 3, now: t0)
            #expect(post.status == .queued)
            #expect(post.folderName == "clip")
            #expect(post.metadata.description == "First try #dance")
            #expect(post.metadata.datePosted == "2023-11-14T22:13:20Z")
            #expect(post.dateAdded == t0)
            #expect(post.media == nil)
            #expect(try await store.post(folderName: "clip") == post)
            #expect(try await store.post(contentHash: "abc") == post)
            #expect(try await store.post(id: post.id + 100) == nil)
            #expect(try await store.sourcePaths(postID: post.id) == ["sources/a.mp4"])
            #expect(job.kind == .transcode && job.state == .queued && job.postID == post.id)
            #expect(job.attempts == 0 && job.maxAttempts == 3 && job.runAfter == t0)
            #expect(try await store.jobs(postID: post.id) == [job])
        }
    }

    @Test("a taken folder name gets -2, -3…", arguments: StoreBackend.allCases)
    func uniqueFolderNames(backend: StoreBackend) async throws {
        try await withStore(backend) { (store) async throws in
            var names: [String] = []
            for _ in 0..<3 {
                names.append(try await store.insertPost(newPost(folderName: "clip"), maxAttempts: 3, now: t0).0.folderName)
            }
            #expect(names == ["clip", "clip-2", "clip-3"])
        }
    }

    @Test("the same content twice is a conflict and stores nothing", arguments: StoreBackend.allCases)
    func contentHashConflict(backend: StoreBackend) async throws {
        try await withStore(backend) { (store) async throws in
            _ = try await store.insertPost(newPost(contentHash: "same"), maxAttempts: 3, now: t0)
            await #expect(throws: StoreError.self) {
                _ = try await store.insertPost(newPost(folderName: "other", contentHash: "same"), maxAttempts: 3, now: t0)
            }
            do {
                _ = try await store.insertPost(newPost(contentHash: "same"), maxAttempts: 3, now: t0)
            } catch let error as StoreError {
                guard case .conflict = error else { Issue.record("expected conflict, got \(error)"); return }
            }
            #expect(try await store.countPosts(status: nil) == 1)
            #expect(try await store.jobs(states: nil, limit: 10).count == 1)
            #expect(try await store.post(folderName: "other") == nil)
        }
    }

    @Test("tags keep their order, drop blanks and duplicates, and are replaced by updateMetadata", arguments: StoreBackend.allCases)
    func tagsRoundTrip(backend: StoreBackend) async throws {
        try await withStore(backend) { (store) async throws in
            let (post, _) = try await store.insertPost(newPost(tags: ["dance", "fun", " ", "dance", "Entertainment"]), maxAttempts: 3, now: t0)
            #expect(post.metadata.tags == ["dance", "fun", "Entertainment"])
            var metadata = post.metadata
            metadata.description = "Edited caption"
            metadata.tags = ["garden", "sun"]
            try await store.updateMetadata(postID: post.id, metadata: metadata)
            let updated = try #require(try await store.post(id: post.id))
            #expect(updated.metadata == metadata)
            await #expect(throws: StoreError.notFound("post 999")) {
                try await store.updateMetadata(postID: 999, metadata: metadata)
            }
        }
    }

    @Test("publish stores media and key together; a later publish without a key removes it", arguments: StoreBackend.allCases)
    func publishWithKey(backend: StoreBackend) async throws {
        try await withStore(backend) { (store) async throws in
            let (post, _) = try await store.insertPost(newPost(), maxAttempts: 3, now: t0)
            try await store.setStatus(postID: post.id, status: .failed, failureReason: "ffmpeg crashed")
            #expect(try await store.post(id: post.id)?.failureReason == "ffmpeg crashed")
            let key = Data((0..<16).map { UInt8($0) })
            try await store.publish(postID: post.id, media: sampleMedia, key: key)
            let ready = try #require(try await store.post(id: post.id))
            #expect(ready.status == .ready && ready.media == sampleMedia && ready.failureReason == nil)
            #expect(try await store.encryptionKey(postID: post.id) == key)
            try await store.publish(postID: post.id, media: sampleMedia, key: nil)
            #expect(try await store.encryptionKey(postID: post.id) == nil)
            await #expect(throws: StoreError.notFound("post 999")) {
                try await store.publish(postID: 999, media: sampleMedia, key: key)
            }
        }
    }

    @Test("deleting a post removes its tags, sources, key and jobs", arguments: StoreBackend.allCases)
    func deletePost(backend: StoreBackend) async throws {
        try await withStore(backend) { (store) async throws in
            let (post, job) = try await store.insertPost(newPost(contentHash: "gone"), maxAttempts: 3, now: t0)
            try await store.publish(postID: post.id, media: sampleMedia, key: Data([1, 2, 3]))
            try await store.deletePost(id: post.id)
            #expect(try await store.post(id: post.id) == nil)
            #expect(try await store.sourcePaths(postID: post.id) == [])
            #expect(try await store.encryptionKey(postID: post.id) == nil)
            #expect(try await store.job(id: job.id) == nil)
            try await store.deletePost(id: post.id)  // idempotent
            // The same content can come back as a new post with a new id.
            let (again, _) = try await store.insertPost(newPost(contentHash: "gone"), maxAttempts: 3, now: t0)
            #expect(again.id != post.id)
            if let sqlite = store as? SQLiteStore { #expect(try sqlite.check() == "ok") }
        }
    }

    @Test("listing is newest first and filters by status; counts agree", arguments: StoreBackend.allCases)
    func listing(backend: StoreBackend) async throws {
        try await withStore(backend) { (store) async throws in
            var ids: [Int64] = []
            for index in 0..<4 {
                let added = t0.addingTimeInterval(Double(index))
                ids.append(try await store.insertPost(newPost(folderName: "p\(index)", dateAdded: added), maxAttempts: 3, now: t0).0.id)
            }
            try await store.publish(postID: ids[1], media: sampleMedia, key: nil)
            #expect(try await store.posts(status: nil, limit: 10).map(\.id) == ids.reversed())
            #expect(try await store.posts(status: nil, limit: 2).map(\.id) == [ids[3], ids[2]])
            #expect(try await store.posts(status: .ready, limit: 10).map(\.id) == [ids[1]])
            #expect(try await store.countPosts(status: nil) == 4)
            #expect(try await store.countPosts(status: .queued) == 3)
            #expect(try await store.countPosts(status: .failed) == 0)
        }
    }
}
