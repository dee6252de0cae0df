import ArgumentParser
import Foundation
import Logging
import ReelPipeline
import ReelStoreSQLite
import ServiceLifecycle
import UnixSignals

struct WorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker", abstract: "Run transcode jobs until stopped (SIGINT/SIGTERM stop it gracefully)."
    )

    @OptionGroup var dataOptions: DataOptions
    @OptionGroup var media: MediaOptions

    @Option(name: .long, help: "Jobs to run at once (env REELHOUSE_WORKER_CONCURRENCY; default: 1 on ≤ 2 cores).")
    var concurrency: Int?

    func run() async throws {
        let context = try AppContext(dataPath: dataOptions.resolvedPath, logLevel: .info)
        try await context.sweeper.sweep()
        let env = ProcessInfo.processInfo.environment["REELHOUSE_WORKER_CONCURRENCY"].flatMap(Int.init)
        let worker = context.worker(concurrency: concurrency ?? env, configuration: media.pipeline)
        let group = ServiceGroup(
            services: [worker], gracefulShutdownSignals: [.sigterm, .sigint], logger: context.logger
        )
        context.logger.info("worker started", metadata: ["data": "\(context.dataFolder.root.path)"])
        try await group.run()
    }
}
