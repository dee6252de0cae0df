import Foundation
import ReelModels
import ReelStorage
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

    /// Whether an upload past its `Upload-Expires` may be deleted. Not while it is complete and
    /// its import is still to come (queued or running, or not recorded yet, which the start-up
    /// scan does), however long no worker ran: deleting it would fail that import with "the
    /// upload is gone". An incomplete upload, a failed import's bytes and an imported upload's
    /// record all go.
    public func mayExpire(_ upload: UploadRecord, now: Date) async throws -> Bool {
        guard upload.expiresAt <= now else { return false }
        guard upload.outcome == nil, (try? await storage.offset(id: upload.id)) == upload.length else { return true }
        guard let job = try await job(uploadID: upload.id) else { return false }
        return job.state.isTerminal
    }

    /// At start-up: queues the import of every complete upload that has not become a post, in
    /// case the server died between the last byte and recording its job. Returns how many
    /// uploads were waiting.
    @discardableResult
    public func recoverPending(now: Date) async throws -> Int {
        let waiting = try await storage.awaitingImport()
        for upload in waiting { _ = try await record(upload, now: now) }
        return waiting.count
    }
}
