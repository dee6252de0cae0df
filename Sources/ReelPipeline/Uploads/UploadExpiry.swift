import Foundation
import Logging
import ReelStorage
import ServiceLifecycle

/// Deletes incomplete uploads past their `Upload-Expires` (and their records), every
/// `interval` while the server runs, so abandoned halves of files never pile up on disk.
public struct UploadExpiry: Service {
    let storage: any UploadStorage
    let interval: TimeInterval
    let logger: Logger
    let now: @Sendable () -> Date

    public init(storage: any UploadStorage, interval: TimeInterval = 600, logger: Logger, now: @escaping @Sendable () -> Date = Date.init) {
        self.storage = storage
        self.interval = interval
        self.logger = logger
        self.now = now
    }

    @discardableResult
    public func sweep() -> Int {
        let expired = (try? storage.expired(now: now())) ?? []
        for id in expired { storage.remove(id: id) }
        if !expired.isEmpty { logger.info("removed expired uploads", metadata: ["count": "\(expired.count)"]) }
        return expired.count
    }

    public func run() async throws {
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            sweep()
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: .seconds(interval)) }
            } catch {
                return
            }
        }
    }
}
