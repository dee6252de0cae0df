import Foundation
import Logging
import ReelJobs
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

    /// Whether an upload past its `Upload-Expires` may be deleted. Not while it is complete and
    /// its import is still to come (queued or running, or not recorded yet, which the start-up
    /// scan does), however long no worker ran: deleting it would fail that import with "the
    /// upload is gone". An incomplete upload, a failed import's bytes and an imported upload's
    /// record all go.
    public func mayExpire(_ upload: UploadRecord, now: Date) async throws -> Bool {
        guard upload.expiresAt <= now else { return false }
        guard upload.outcome == nil, (try? storage.offset(id: upload.id)) == upload.length else { return true }
        guard let job = try await job(uploadID: upload.id) else { return false }
        return job.state.isTerminal
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

/// The `upload_import` job: a complete upload becomes a post through `UploadPublisher`, and
/// the upload's record keeps the outcome (for HEAD and a repeated last PATCH). Safe to run
/// again at any point: the bytes are dropped only after the outcome is saved, and the same
/// content imported twice returns the post the first run made.
public struct UploadImportJobHandler: JobHandler {
    public let kind = JobKind.uploadImport
    let storage: any UploadStorage
    let publisher: UploadPublisher
    let logger: Logger
    /// Test-only: each attempt waits this long before importing, so an end-to-end test can kill
    /// the server while an import is recorded but not done (`REELHOUSE_TEST_IMPORT_DELAY_SECONDS`).
    let delayForTests: Duration?

    public init(storage: any UploadStorage, publisher: UploadPublisher, logger: Logger, delayForTests: Duration? = nil) {
        self.storage = storage
        self.publisher = publisher
        self.logger = logger
        self.delayForTests = delayForTests
    }

    public func run(_ job: Job, context: JobContext) async throws -> JobOutcome {
        guard let id = job.subject, UploadRecord.isValidID(id), var upload = try storage.record(id: id) else {
            throw JobFailure.invalidInput("the upload is gone (discarded or expired) before it could be imported")
        }
        if upload.outcome != nil {
            storage.discardBytes(id: id)  // an earlier attempt saved the outcome and died before this
            return .finished
        }
        if let delayForTests { try await Task.sleep(for: delayForTests) }
        guard try storage.offset(id: id) == upload.length else {
            throw JobFailure.invalidInput("the upload's bytes are incomplete or missing, so it cannot be imported")
        }
        let outcome: ImportedPost
        do {
            outcome = try await publisher.publish(
                upload, file: try storage.completedFile(id: id), username: upload.uploaderName ?? "user \(upload.userID)"
            )
        } catch PipelineError.rejected(let reason) {
            // Nothing of a file we cannot publish is kept.
            storage.remove(id: id)
            throw JobFailure.invalidInput("the upload is not a video or image we can publish: \(reason)")
        }
        upload.outcome = outcome
        try storage.save(upload)
        storage.discardBytes(id: id)
        logger.info("upload imported", metadata: ["upload": "\(id)", "post": "\(outcome.postID)"])
        return .finished
    }
}
