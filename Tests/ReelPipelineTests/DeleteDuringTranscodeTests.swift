import Foundation
import Logging
import ReelJobs
import ReelModels
import ReelProcess
import ReelStorage
import ReelStorageLocal
import ReelStore
import ReelStoreSQLite
import Testing
@testable import ReelPipeline
import ReelTestFiles

/// A post deleted (as `DELETE /api/v1/videos/{id}` does it: the row, then its media folder)
/// while its transcode runs: the job fails cleanly and leaves no files behind.
@Suite("Delete during transcode")
struct DeleteDuringTranscodeTests {
    /// The real runner; the first time ffmpeg is started it first deletes the post, so the
    /// delete lands exactly while the transcode is under way.
    final class DeletingRunner: ProcessRunner, @unchecked Sendable {
        let real = FoundationProcessRunner()
        let lock = NSLock()
        var delete: (@Sendable () async throws -> Void)?

        private func takeDelete(_ executable: String) -> (@Sendable () async throws -> Void)? {
            lock.withLock {
                guard executable == "ffmpeg" else { return nil }
                defer { delete = nil }
                return delete
            }
        }

        func run(_ executable: String, _ arguments: [String]) async throws -> ProcessOutput {
            if let delete = takeDelete(executable) { try await delete() }
            return try await real.run(executable, arguments)
        }

        func run(_ executable: String, _ arguments: [String], onLine: @escaping @Sendable (String) -> Void) async throws -> ProcessOutput {
            if let delete = takeDelete(executable) { try await delete() }
            return try await real.run(executable, arguments, onLine: onLine)
        }
    }

    @Test func aPostDeletedWhileTranscodingLeavesNoFilesAndItsJobFails() async throws {
        let root = TemporaryFolder.fresh("reel-delete")
        defer { try? FileManager.default.removeItem(at: root) }
        let dataFolder = DataFolder(root: root)
        try dataFolder.prepare()
        let store = try SQLiteStore(path: dataFolder.databasePath)
        let storage = LocalMediaStorage(root: dataFolder.mediaRoot)
        let source = dataFolder.sourcesRoot.appendingPathComponent("clip.mp4")
        try FileManager.default.createDirectory(at: dataFolder.sourcesRoot, withIntermediateDirectories: true)
        let made = try await FoundationProcessRunner().run("ffmpeg", [
            "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=15", "-f", "lavfi",
            "-i", "sine=frequency=440:sample_rate=44100", "-t", "2", "-pix_fmt", "yuv420p", "-c:v", "libx264", "-preset", "ultrafast",
            "-c:a", "aac", "-shortest", source.path,
        ])
        #expect(made.succeeded, "\(made.stderrTail)")
        let (post, job) = try await store.insertPost(
            NewPost(kind: .video, folderName: "clip", metadata: PostMetadata(), contentHash: "clip", sourcePaths: ["sources/clip.mp4"], dateAdded: Date()),
            maxAttempts: 3, now: Date()
        )
        let runner = DeletingRunner()
        runner.delete = {
            _ = try await store.removePost(id: post.id)
            try await storage.remove(postKey: String(post.id))
        }
        let handler = TranscodeJobHandler(
            dataFolder: dataFolder, store: store, storage: storage, sources: SourceStore(dataFolder: dataFolder), runner: runner,
            configuration: PipelineConfiguration(encryptSegments: true),
            logger: Logger(label: "delete-during-transcode", factory: { _ in SwiftLogNoOpLogHandler() })
        )
        await #expect(throws: JobFailure.invalidInput("the post of this job was deleted")) {
            _ = try await handler.run(job, context: JobContext(workerID: "test", attempt: 1))
        }
        #expect(runner.delete == nil, "the post was deleted while ffmpeg ran")
        #expect(try await store.post(id: post.id) == nil)
        #expect(try await store.job(id: job.id) == nil)
        #expect(try await storage.postKeys().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: dataFolder.mediaRoot.appendingPathComponent("\(post.id)").path))
        #expect(!FileManager.default.fileExists(atPath: dataFolder.workDirectory(jobID: job.id).path))
    }
}
