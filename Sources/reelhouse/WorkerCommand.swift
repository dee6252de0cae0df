import ArgumentParser
import Foundation
import Logging
import ReelJobs
import ReelPipeline
import ReelServer
import ReelStorage
import ServiceLifecycle
import UnixSignals

struct WorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker", abstract: "Run queued jobs (transcodes, upload imports, generations, upkeep) until stopped (SIGINT/SIGTERM stop it gracefully)."
    )

    @OptionGroup var dataOptions: DataOptions
    @OptionGroup var media: MediaOptions

    @Option(name: .long, help: "Jobs to run at once (env REELHOUSE_WORKER_CONCURRENCY; default: 1 on ≤ 2 cores).")
    var concurrency: Int?

    func run() async throws {
        // The same settings `serve` reads (config file and environment) for what jobs need.
        try await AppContext.withLibrary(
            dataPath: dataOptions.resolvedPath, command: "worker", logLevel: .info, flags: media.flags(workerConcurrency: concurrency)
        ) { context in
            try await work(context)
        }
    }

    private func work(_ context: AppContext) async throws {
        let configuration = context.settings
        let node = try await NodeParts.make(context: context, configuration: configuration)
        let workers = context.workers(settings: configuration, light: try await node.lightJobs())
        let group = ServiceGroup(
            services: workers, gracefulShutdownSignals: [.sigterm, .sigint], logger: context.logger
        )
        context.logger.info("worker started", metadata: ["data": "\(context.dataFolder.root.path)"])
        try await group.run()
    }
}
