import Foundation
import Logging
import ReelJobs
import ReelLibrary
import ReelModels
import ReelStorage

/// Deletes incomplete uploads past their `Upload-Expires` (and their records), so abandoned
/// halves of files never pile up on disk; runs as the recurring `upload_expiry` job.
public struct UploadExpiry: Sendable {
    let imports: UploadImports
    let storage: any UploadStorage
    let logger: Logger
    let now: @Sendable () -> Date

    public init(imports: UploadImports, storage: any UploadStorage, logger: Logger, now: @escaping @Sendable () -> Date = Date.init) {
        self.imports = imports
        self.storage = storage
        self.logger = logger
        self.now = now
    }

    /// The `upload_expiry` job: a sweep every `interval`, for the light worker to run.
    public func recurringJob(every interval: TimeInterval = 600) -> RecurringJob {
        RecurringJob(kind: .uploadExpiry, every: interval) { try await sweep() }
    }

    /// Removes the expired uploads; a complete one whose import is still to come stays (see
    /// `UploadImports.mayExpire`). Throws when the queue cannot be asked, so the job retries.
    @discardableResult
    public func sweep() async throws -> Int {
        let now = now()
        var removed = 0
        for id in try await storage.expired(now: now) {
            // No readable record: stray bytes, already past the storage's grace period.
            if let upload = try? await storage.record(id: id), try await !imports.mayExpire(upload, now: now) { continue }
            await storage.remove(id: id)
            removed += 1
        }
        if removed > 0 { logger.info("removed expired uploads", metadata: ["count": "\(removed)"]) }
        return removed
    }
}
