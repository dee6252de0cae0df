import Foundation
import Logging
import ReelJobs
import ReelModels
import ReelStorage
import ReelStore

/// The `upload_import` job: a complete upload becomes a post through `UploadPublisher`, and
/// the upload's record keeps the outcome (for HEAD and a repeated last PATCH). Safe to run
/// again at any point: the bytes are dropped only after the outcome is saved, and the same
/// content imported twice returns the post the first run made.
public struct UploadImportJobHandler: JobHandler {
    public let kind = JobKind.uploadImport
    let storage: any UploadStorage
    let publisher: UploadPublisher
    let logger: Logger

    public init(storage: any UploadStorage, publisher: UploadPublisher, logger: Logger) {
        self.storage = storage
        self.publisher = publisher
        self.logger = logger
    }

    public func run(_ job: Job, context: JobContext) async throws -> JobOutcome {
        guard let id = job.subject, UploadRecord.isValidID(id), var upload = try await storage.record(id: id) else {
            throw JobFailure.invalidInput("the upload is gone (discarded or expired) before it could be imported")
        }
        if upload.outcome != nil {
            await storage.discardBytes(id: id)  // an earlier attempt saved the outcome and died before this
            return .finished
        }
        guard try await storage.offset(id: id) == upload.length else {
            throw JobFailure.invalidInput("the upload's bytes are incomplete or missing, so it cannot be imported")
        }
        let outcome: ImportedPost
        do {
            let name = upload.uploaderName ?? "user \(upload.userID)"
            outcome = try await storage.withCompletedFile(id: id) { [upload] file in
                try await publisher.publish(upload, file: file, username: name)
            }
        } catch PipelineError.rejected(let reason) {
            // Nothing of a file we cannot publish is kept.
            await storage.remove(id: id)
            throw JobFailure.invalidInput("the upload is not a video or image we can publish: \(reason)")
        }
        upload.outcome = outcome
        try await storage.save(upload)
        await storage.discardBytes(id: id)
        logger.info("upload imported", metadata: ["upload": "\(id)", "post": "\(outcome.postID)"])
        return .finished
    }
}
