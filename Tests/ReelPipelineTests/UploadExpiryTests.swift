import Foundation
import Logging
import NIOCore
import ReelJobs
import ReelLibrary
import ReelModels
import ReelStorage
import ReelStorageLocal
import ReelStoreSQLite
import Testing
@testable import ReelPipeline
import ReelTestFiles

@Suite("Upload expiry: the recurring upload_expiry job")
struct UploadExpiryTests {
    /// Upload files in a temporary folder and the job queue in a temporary SQLite store.
    struct Fixture {
        let root = TemporaryFolder.fresh("reel-uploads")
        let store: SQLiteStore
        /// Whole seconds, as upload records store them, so a record read back equals the one made.
        let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded())

        init() throws { store = try SQLiteStore.inMemory() }

        var storage: LocalUploadStorage { LocalUploadStorage(root: root) }
        var imports: UploadImports { UploadImports(jobs: store, storage: storage) }
        var expiry: UploadExpiry { UploadExpiry(imports: imports, storage: storage, logger: Logger(label: "test"), now: { [now] in now }) }
        var files: Set<String> { Set((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []) }

        /// An upload of 10 bytes expiring `expiresIn` seconds from `now`, with `received` of them.
        func upload(expiresIn: TimeInterval, received: Int = 0) async throws -> UploadRecord {
            let expires = now.addingTimeInterval(expiresIn)
            let upload = UploadRecord(
                id: UploadRecord.makeID(), length: 10, metadata: ["filename": "a.mp4"], userID: 1,
                createdAt: expires.addingTimeInterval(-60), expiresAt: expires
            )
            try storage.create(upload)
            let writer = try storage.openWriter(id: upload.id, at: 0)
            try await writer.write(ByteBuffer(repeating: 7, count: received))
            await writer.close()
            return upload
        }

        func remove() { try? FileManager.default.removeItem(at: root) }
    }

    @Test("removes expired uploads and strays, keeps live ones; the job's round ends with its next one")
    func removesExpired() async throws {
        let f = try Fixture()
        defer { f.remove() }
        let live = try await f.upload(expiresIn: 60)
        _ = try await f.upload(expiresIn: -1, received: 4)
        let stray = f.root.appendingPathComponent("\(UploadRecord.makeID()).bin")
        _ = FileManager.default.createFile(atPath: stray.path, contents: Data("x".utf8))
        try FileManager.default.setAttributes([.modificationDate: f.now.addingTimeInterval(-7200)], ofItemAtPath: stray.path)
        _ = FileManager.default.createFile(atPath: f.root.appendingPathComponent("notes.txt").path, contents: Data())

        let handler = f.expiry.recurringJob(every: 600)
        #expect(handler.kind == .uploadExpiry)
        let job = try await handler.schedule(on: f.store, now: f.now)
        #expect(try await handler.run(job, context: JobContext(workerID: "test", attempt: 1)) == .recur(after: 600))
        #expect(f.files == ["\(live.id).bin", "\(live.id).json", "notes.txt"])
        #expect(try await f.expiry.sweep() == 0)
    }

    @Test("a complete upload whose import is still to come outlives its expiry, however long no worker ran")
    func keepsCompleteUploadAwaitingImport() async throws {
        let f = try Fixture()
        defer { f.remove() }
        let waiting = try await f.upload(expiresIn: -86_400, received: 10)
        let unrecorded = try await f.upload(expiresIn: -86_400, received: 10)
        let job = try await f.imports.record(waiting, now: f.now.addingTimeInterval(-90_000))

        #expect(try await f.expiry.sweep() == 0)
        #expect(try f.storage.record(id: waiting.id) == waiting && f.storage.offset(id: waiting.id) == 10)
        #expect(try f.storage.record(id: unrecorded.id) == unrecorded, "the start-up scan records its import")
        #expect(try await !f.imports.mayExpire(waiting, now: f.now))

        // Running still counts as to come; once the import has failed for good the bytes may go.
        _ = try await f.store.claim(workerID: "w", kinds: [.uploadImport], leaseDuration: 30, now: f.now)
        #expect(try await f.expiry.sweep() == 0)
        _ = try await f.store.cancel(jobID: job.id, reason: "cancelled by ana", now: f.now)
        #expect(try await f.expiry.sweep() == 1)
        #expect(try f.storage.record(id: waiting.id) == nil && f.storage.record(id: unrecorded.id) != nil)
    }
}
