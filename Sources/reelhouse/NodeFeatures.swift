import Foundation
import ReelForYou
import ReelJobs
import ReelLibrary
import ReelModels
import ReelPipeline
import ReelS3
import ReelServer
import ReelStorage

/// Beside its routes (ReelServer's `ServerFeature`), a feature may bring job handlers and
/// recurring upkeep to the light worker, in `serve` and `worker` alike. Each declares them in
/// its own `NodeFeature`; the commands run `NodeFeatures.standard`, so a new job or upkeep
/// edits its feature's declaration, not the commands.
protocol NodeFeature: Sendable {
    /// Handlers of the feature's own job kinds.
    func handlers(_ node: NodeParts) throws -> [any JobHandler]
    /// Recurring jobs on the one queue (instead of a loop of their own).
    func upkeep(_ node: NodeParts) -> [RecurringJob]
}

extension NodeFeature {
    func handlers(_ node: NodeParts) throws -> [any JobHandler] { [] }
    func upkeep(_ node: NodeParts) -> [RecurringJob] { [] }
}

enum NodeFeatures {
    static let standard: [any NodeFeature] = [
        LibraryUpkeepFeature(), UploadJobsFeature(), GenerationJobsFeature(), StoryUpkeepFeature(), EventUpkeepFeature(),
    ]
}

/// What a node builds once from its settings for the features: uploads and generations, which
/// both the routes and the jobs use.
struct NodeParts {
    let context: AppContext
    let configuration: ServerConfiguration
    let uploads: UploadDependencies
    let generations: GenerationDependencies

    static func make(context: AppContext, configuration: ServerConfiguration) async throws -> NodeParts {
        let uploads = try UploadSetup.dependencies(context: context, configuration: configuration)
        // Complete uploads whose import was never recorded (the server died on their last byte).
        try await UploadSetup.recoverPending(uploads, logger: context.logger)
        let generations = try GenerationSetup.dependencies(context: context, configuration: configuration)
        return NodeParts(context: context, configuration: configuration, uploads: uploads, generations: generations)
    }

    /// What the light worker runs. The upkeep jobs are recorded first, so they exist once
    /// whichever process starts first, and a failed one runs again after a restart.
    func lightJobs(features: [any NodeFeature] = NodeFeatures.standard) async throws -> [any JobHandler] {
        let upkeep = features.flatMap { $0.upkeep(self) }
        for job in upkeep { try await job.schedule(on: context.store, now: Date()) }
        return try features.flatMap { try $0.handlers(self) } + upkeep
    }
}

/// The data folder's `sweep` and, with media in a bucket, the hourly `storage.sweep` of day-old
/// staging objects and multipart uploads (a publish takes seconds; a day-old one was interrupted).
struct LibraryUpkeepFeature: NodeFeature {
    func upkeep(_ node: NodeParts) -> [RecurringJob] {
        var jobs = [node.context.sweeper.recurringJob()]
        if let bucket = node.context.storage as? S3MediaStorage {
            jobs.append(RecurringJob(kind: .storageSweep, every: 3600) { try await bucket.sweep(olderThan: Date().addingTimeInterval(-86_400)) })
        }
        return jobs
    }
}

/// `upload_import` jobs and the `upload_expiry` of abandoned uploads.
struct UploadJobsFeature: NodeFeature {
    func handlers(_ node: NodeParts) throws -> [any JobHandler] {
        [try UploadSetup.importHandler(context: node.context, configuration: node.configuration)]
    }

    func upkeep(_ node: NodeParts) -> [RecurringJob] {
        [UploadExpiry(imports: node.uploads.imports, storage: node.uploads.storage, logger: node.context.logger).recurringJob()]
    }
}

/// The `generation` job's steps (submit, poll, download).
struct GenerationJobsFeature: NodeFeature {
    func handlers(_ node: NodeParts) throws -> [any JobHandler] {
        [GenerationSetup.jobHandler(node.generations, context: node.context)]
    }
}

/// `stories.expire`: stories leave the tray, and unarchived ones their media.
struct StoryUpkeepFeature: NodeFeature {
    func upkeep(_ node: NodeParts) -> [RecurringJob] {
        let context = node.context
        return [StoryExpiry(
            stories: context.store, removal: PostRemoval(library: context.store, storage: context.storage, sources: context.sources),
            keepOwnerArchive: node.configuration[StorySettings.self].storyArchive, logger: context.logger
        ).recurringJob()]
    }
}

/// For You's: `events.expire` of old watch events and `recs.neighbors`, the neighbour table.
struct EventUpkeepFeature: NodeFeature {
    func upkeep(_ node: NodeParts) -> [RecurringJob] {
        let settings = node.configuration[EventSettings.self]
        let upkeep = EventUpkeep(events: node.context.store, retention: settings.eventRetention, logger: node.context.logger)
        return [upkeep.expiryJob(), upkeep.neighborsJob(every: settings.neighborRefreshMinutes * 60)]
    }
}
