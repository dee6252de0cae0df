import Foundation
import Logging
import ReelJobs
import ReelModels
import ReelStorage
import ReelStorageLocal
import ReelStore
import ReelStoreSQLite
import Testing
@testable import ReelPipeline
import ReelTestFiles

@Suite("Sweeping leftovers of interrupted work")
struct SweeperTests {
    @Test("orphan job folders and hour-old publishing stages and renders go; fresh ones stay")
    func sweeps() async throws {
        let root = TemporaryFolder.fresh("reel-sweep")
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = DataFolder(root: root)
        try folder.prepare()
        let store = try SQLiteStore.inMemory()
        let sweeper = Sweeper(
            dataFolder: folder, library: store, jobs: store, storage: LocalMediaStorage(root: folder.mediaRoot), logger: Logger(label: "test")
        )
        let now = Date()
        let fm = FileManager.default
        func make(_ url: URL, age: TimeInterval) throws {
            try fm.createDirectory(at: url, withIntermediateDirectories: true)
            try fm.setAttributes([.modificationDate: now.addingTimeInterval(-age)], ofItemAtPath: url.path)
        }
        let orphanJob = folder.workDirectory(jobID: 41)
        let oldStage = folder.publishStagingRoot.appendingPathComponent("generation-3")
        let freshStage = folder.publishStagingRoot.appendingPathComponent("generation-4")
        let oldRender = folder.generationsRoot.appendingPathComponent("work/card_old")
        let freshRender = folder.generationsRoot.appendingPathComponent("work/card_new")
        try make(orphanJob, age: 10)
        try make(oldStage, age: 7200)
        try make(freshStage, age: 60)
        try make(oldRender, age: 4000)
        try make(freshRender, age: 5)

        #expect(try await sweeper.sweep(now: now) == 3)
        #expect(!fm.fileExists(atPath: orphanJob.path) && !fm.fileExists(atPath: oldStage.path) && !fm.fileExists(atPath: oldRender.path))
        #expect(fm.fileExists(atPath: freshStage.path) && fm.fileExists(atPath: freshRender.path))

        // As the recurring `sweep` job: one round sweeps, then asks for the next in an hour.
        try make(orphanJob, age: 10)
        let job = sweeper.recurringJob()
        #expect(job.kind == .sweep)
        let recorded = try await job.schedule(on: store, now: now)
        #expect(try await job.run(recorded, context: JobContext(workerID: "test", attempt: 1)) == .recur(after: 3600))
        #expect(!fm.fileExists(atPath: orphanJob.path))
    }

    @Test("media folders of ready posts and of posts still queued stay; a never-published or unknown post's folder goes")
    func sweepsMediaFolders() async throws {
        let root = TemporaryFolder.fresh("reel-sweep")
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = DataFolder(root: root)
        try folder.prepare()
        let store = try SQLiteStore.inMemory()
        let storage = LocalMediaStorage(root: folder.mediaRoot)
        let sweeper = Sweeper(dataFolder: folder, library: store, jobs: store, storage: storage, logger: Logger(label: "test"))
        let now = Date()
        func post(_ name: String) async throws -> (Post, Job) {
            try await store.insertPost(
                NewPost(kind: .video, folderName: name, metadata: PostMetadata(), contentHash: name, sourcePaths: ["sources/\(name).mp4"], dateAdded: now),
                maxAttempts: 1, now: now
            )
        }
        let (ready, readyJob) = try await post("ready")
        let media = PublishedMedia(duration: 1, width: 1, height: 1, hasSourceAudio: false, encrypted: false, masterPlaylist: "m.m3u8",
                                   renditions: [], poster: nil, thumbnail: nil, download: nil, images: [])
        try await store.publish(postID: ready.id, media: media, key: nil)
        _ = try await store.cancel(jobID: readyJob.id, reason: "done in this test", now: now)
        let (queued, _) = try await post("queued")
        let (abandoned, abandonedJob) = try await post("abandoned")
        _ = try await store.cancel(jobID: abandonedJob.id, reason: "died before publishing", now: now)
        for id in [ready.id, queued.id, abandoned.id, 999] {
            let staged = root.appendingPathComponent("stage-\(id)")
            try FileManager.default.createDirectory(at: staged, withIntermediateDirectories: true)
            try Data("x".utf8).write(to: staged.appendingPathComponent("m.m3u8"))
            try await storage.publish(stagedDirectory: staged, postKey: String(id))
        }

        #expect(try await sweeper.sweep(now: now) == 2)
        #expect(try await storage.postKeys() == [String(ready.id), String(queued.id)].sorted())
    }
}
