import Foundation
import ReelModels
import ReelStore

/// Records and finds the import job of complete uploads: one `upload_import` job per upload
/// (its id is the job's subject), so recording it again — a repeated last PATCH, a HEAD after
/// a crash, the start-up scan — is a no-op that returns the same job.
public struct UploadImports: Sendable {
    public let jobs: any JobStore
    let storage: any UploadStorage
    /// Attempts for an import: ffprobe and a few file operations, so a failure that is not the
    /// file's fault (a full disk, a busy database) gets two more tries.
    public var maxAttempts = 3

    public init(jobs: any JobStore, storage: any UploadStorage) {
        self.jobs = jobs
        self.storage = storage
    }

    /// The upload's bytes are all there: make sure its import is queued.
    public func record(_ upload: UploadRecord, now: Date) async throws -> Job {
        try await jobs.enqueue(kind: .uploadImport, subject: upload.id, maxAttempts: maxAttempts, timeLimit: nil, now: now)
    }

    public func job(uploadID: String) async throws -> Job? {
        try await jobs.job(kind: .uploadImport, subject: uploadID)
    }

    /// At start-up: queues the import of every complete upload that has not become a post, in
    /// case the server died between the last byte and recording its job. Returns how many
    /// uploads were waiting.
    @discardableResult
    public func recoverPending(now: Date) async throws -> Int {
        let waiting = try storage.awaitingImport()
        for upload in waiting { _ = try await record(upload, now: now) }
        return waiting.count
    }
}
