import Foundation
import ReelForYou
import ReelJobs
import ReelLibrary
import ReelModels
import ReelPipeline
import ReelS3
import ReelServer
import ReelStorage

/// What the light worker runs, in `serve` and `worker` alike: upload imports, generation steps
/// and the server's upkeep (the `sweep`, `upload_expiry`, `stories.expire`, `events.expire`,
/// `recs.neighbors` and, with media in a bucket, `storage.sweep` jobs, each a recurring job on
/// the one queue instead of a loop of its own).
enum LightJobs {
    /// Records the upkeep jobs first, so they exist once whichever process starts first, and a
    /// failed one runs again after a restart.
    static func handlers(
        context: AppContext, configuration: ServerConfiguration,
        uploads: UploadDependencies, generations: GenerationDependencies
    ) async throws -> [any JobHandler] {
        let upkeep = [
            context.sweeper.recurringJob(),
            UploadExpiry(imports: uploads.imports, storage: uploads.storage, logger: context.logger).recurringJob(),
            StoryExpiry(
                stories: context.store,
                removal: PostRemoval(library: context.store, storage: context.storage, sources: context.sources),
                keepOwnerArchive: configuration.storyArchive, logger: context.logger
            ).recurringJob(),
        ] + eventUpkeep(context: context, configuration: configuration) + storageUpkeep(context: context)
        for job in upkeep { try await job.schedule(on: context.store, now: Date()) }
        return [
            try UploadSetup.importHandler(context: context, configuration: configuration),
            GenerationSetup.jobHandler(generations, context: context),
        ] + upkeep
    }

    /// With media in a bucket: the hourly `storage.sweep` of day-old staging objects and
    /// multipart uploads (a publish takes seconds; a day-old one was interrupted).
    static func storageUpkeep(context: AppContext) -> [RecurringJob] {
        guard let bucket = context.storage as? S3MediaStorage else { return [] }
        return [RecurringJob(kind: .storageSweep, every: 3600) { try await bucket.sweep(olderThan: Date().addingTimeInterval(-86_400)) }]
    }

    /// For You's: expiring watch events and rebuilding the neighbour table.
    static func eventUpkeep(context: AppContext, configuration: ServerConfiguration) -> [RecurringJob] {
        let upkeep = EventUpkeep(events: context.store, retention: configuration.eventRetention, logger: context.logger)
        return [upkeep.expiryJob(), upkeep.neighborsJob(every: configuration.neighborRefreshMinutes * 60)]
    }
}
