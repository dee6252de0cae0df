import Foundation
import Logging
import ReelJobs
import ReelModels
import ReelStorage
import ReelStore

/// Removes what interrupted work left behind: work folders of jobs that are no longer running
/// and media folders of posts that never became `ready` (a publish that moved its files but
/// died before the database said so). Safe to run while other workers share the data folder:
/// a folder is only removed when no live lease covers it.
public struct Sweeper: Sendable {
    let dataFolder: DataFolder
    let library: any LibraryStore
    let jobs: any JobStore
    let storage: any MediaStorage
    let logger: Logger

    public init(dataFolder: DataFolder, library: any LibraryStore, jobs: any JobStore, storage: any MediaStorage, logger: Logger) {
        self.dataFolder = dataFolder
        self.library = library
        self.jobs = jobs
        self.storage = storage
        self.logger = logger
    }

    /// The `sweep` job: a sweep every `interval` (an hour: stages count as leftovers after an
    /// hour, so sweeping more often finds little more), for the light worker to run.
    public func recurringJob(every interval: TimeInterval = 3600) -> RecurringJob {
        RecurringJob(kind: .sweep, every: interval) { try await sweep() }
    }

    @discardableResult
    public func sweep(now: Date = Date()) async throws -> Int {
        var removed = 0
        // Folders are listed before the jobs are read: a job claimed meanwhile (it runs next to
        // other workers) made its folder after the listing, so it is never taken for a leftover.
        let fileManager = FileManager.default
        let workFolders = (try? fileManager.contentsOfDirectory(atPath: dataFolder.tempRoot.path)) ?? []
        let mediaKeys = try await storage.postKeys()
        let running = try await jobs.jobs(states: [.running, .queued], limit: 100_000)
        let busyJobs = Set(running.filter { $0.state == .running && ($0.leaseExpiresAt ?? .distantPast) > now }.map(\.id))
        let busyPosts = Set(running.compactMap(\.postID))

        for name in workFolders where name.hasPrefix("job-") {
            guard let id = Int64(name.dropFirst(4)), !busyJobs.contains(id) else { continue }
            try? fileManager.removeItem(at: dataFolder.tempRoot.appendingPathComponent(name))
            removed += 1
        }
        // One query for the whole library, not one per media folder: a start-up sweep of a
        // 100k-post library would otherwise issue 100k queries before the server listens.
        // Stories are published media too (only their expiry sweep removes them).
        let ready = try await library.postIDs(status: .ready).union(library.postIDs(status: .story))
        for key in mediaKeys {
            guard let id = Int64(key), !busyPosts.contains(id), !ready.contains(id) else { continue }
            try await storage.remove(postKey: key)
            removed += 1
        }
        // Publishing stages and local renders take seconds; an hour-old one was interrupted.
        // (Age, not liveness: another process may be publishing right now.)
        for root in [dataFolder.publishStagingRoot, dataFolder.generationsRoot.appendingPathComponent("work", isDirectory: true)] {
            for name in (try? fileManager.contentsOfDirectory(atPath: root.path)) ?? [] {
                let url = root.appendingPathComponent(name)
                let modified = (try? fileManager.attributesOfItem(atPath: url.path)[.modificationDate] as? Date) ?? now
                guard now.timeIntervalSince(modified) > 3600 else { continue }
                try? fileManager.removeItem(at: url)
                removed += 1
            }
        }
        if removed > 0 { logger.info("swept leftovers of interrupted work", metadata: ["folders": "\(removed)"]) }
        return removed
    }
}
