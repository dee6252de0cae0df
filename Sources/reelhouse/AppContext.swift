import Foundation
import Logging
import ReelJobs
import ReelMedia
import ReelPipeline
import ReelStore
import ReelStoreSQLite

/// Everything a subcommand needs, wired once from the data folder.
struct AppContext {
    let dataFolder: DataFolder
    let store: SQLiteStore
    let storage: LocalMediaStorage
    let runner: FoundationProcessRunner
    let logger: Logger

    /// `creating` is for the commands that start a library (`serve`, `import`, `user add`,
    /// and `bench-seed`'s synthetic ones);
    /// every other command refuses a data folder that does not exist, so a mistyped `--data`
    /// is named instead of reported as a healthy empty library.
    init(dataPath: String, creating: Bool = false, logLevel: Logger.Level = .warning) throws {
        dataFolder = DataFolder(root: URL(fileURLWithPath: dataPath))
        if !creating {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: dataFolder.root.path, isDirectory: &isDirectory), isDirectory.boolValue,
                  FileManager.default.fileExists(atPath: dataFolder.databasePath)
            else {
                throw CLIError("no Reelhouse library at \(dataFolder.root.path): check --data or REELHOUSE_DATA (serve, import and user add create one)")
            }
        }
        do {
            try dataFolder.prepare()
        } catch {
            throw CLIError("\(error)")
        }
        do {
            store = try SQLiteStore(path: dataFolder.databasePath)
        } catch {
            throw CLIError("cannot open the database at \(dataFolder.databasePath): \(error)")
        }
        storage = LocalMediaStorage(root: dataFolder.mediaRoot)
        runner = FoundationProcessRunner()
        var logger = Logger(label: "reelhouse")
        logger.logLevel = logLevel
        self.logger = logger
    }

    func transcodeHandler(configuration: PipelineConfiguration = PipelineConfiguration()) -> TranscodeJobHandler {
        TranscodeJobHandler(
            dataFolder: dataFolder, store: store, storage: storage, runner: runner,
            configuration: configuration, logger: logger
        )
    }

    /// The workers of the one job queue: transcodes (heavy: every core through ffmpeg, so
    /// `concurrency` of them, default 1 on small machines) and the light kinds — upload
    /// imports, generation steps and the upkeep jobs, each seconds at most — on a worker of their own,
    /// so a person's upload or prompt never waits behind someone's long transcode. Both share
    /// the queue's leases, retries, backoff, deadlines and timeouts.
    func workers(
        concurrency: Int?, configuration: PipelineConfiguration = PipelineConfiguration(), light: [any JobHandler],
        wrap: (any JobHandler) -> any JobHandler = { $0 }
    ) -> [JobWorker] {
        var lightConfiguration = Self.workerConfiguration()
        lightConfiguration.concurrency = 2
        // A waiting upload request or a generation preview is a person waiting: look often.
        lightConfiguration.pollInterval = 0.1
        return [
            worker(concurrency: concurrency, configuration: configuration, wrap: wrap),
            JobWorker(store: store, handlers: light, configuration: lightConfiguration, logger: logger),
        ]
    }

    /// Transcodes only (`import` waiting for its own jobs, the demo).
    func worker(
        concurrency: Int?, configuration: PipelineConfiguration = PipelineConfiguration(),
        wrap: (any JobHandler) -> any JobHandler = { $0 }
    ) -> JobWorker {
        var heavy = Self.workerConfiguration()
        if let concurrency { heavy.concurrency = max(1, concurrency) }
        return JobWorker(store: store, handlers: [wrap(transcodeHandler(configuration: configuration))], configuration: heavy, logger: logger)
    }

    private static func workerConfiguration() -> JobWorkerConfiguration {
        var workerConfiguration = JobWorkerConfiguration()
        // Tests shorten leases to see a killed worker's job reclaimed within seconds.
        let env = ProcessInfo.processInfo.environment
        if let lease = env["REELHOUSE_LEASE_SECONDS"].flatMap(Double.init), lease > 0 {
            workerConfiguration.leaseDuration = lease
            workerConfiguration.heartbeatInterval = max(0.2, lease / 4)
        }
        if let timeout = env["REELHOUSE_JOB_TIMEOUT_SECONDS"].flatMap(Double.init), timeout > 0 {
            workerConfiguration.attemptTimeout = timeout
        }
        return workerConfiguration
    }

    var sweeper: Sweeper {
        Sweeper(dataFolder: dataFolder, library: store, jobs: store, storage: storage, logger: logger)
    }
}

/// A fatal CLI error: printed as one line on stderr, exit code 1.
struct CLIError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
