import Foundation
import Logging
import ReelJobs
import ReelMedia
import ReelPipeline
import ReelProcess
import ReelS3
import ReelServer
import ReelStorage
import ReelStorageLocal
import ReelStore
import ReelStoreSQLite

/// Everything a subcommand needs, wired once from the settings: the metadata store they name
/// (SQLite in the data folder, or PostgreSQL), the media storage, the data folder (which keeps
/// the secret, the config file and the local work files either way).
struct AppContext {
    let dataFolder: DataFolder
    /// The one metadata store: nothing past `withLibrary` knows which backend it is.
    let store: any MetadataStore
    /// The SQLite store itself, for what only it does (the integrity check, synthetic bench
    /// data, the `ORDER BY random()` bench baseline); nil on PostgreSQL.
    let sqlite: SQLiteStore?
    /// Wakes idle workers when a job becomes claimable on any node (PostgreSQL's `LISTEN`);
    /// nil: workers poll, as one process on SQLite does.
    let jobWakeups: (any JobWakeupSource)?
    /// This process's workers say here when a job changes; the server's waiting handlers listen.
    let jobActivity = JobActivity()
    /// Where the login, key, API and event limits are counted so that every API node shares
    /// them (PostgreSQL); nil counts them in this process's memory.
    let sharedRateLimits: (any RateLimitStore)?
    /// Defaults < config file < `REELHOUSE_*` environment < the command's flags.
    let settings: ServerConfiguration
    /// The data folder's `media/`, or the bucket the settings name (`storage = s3://…`).
    private(set) var storage: any MediaStorage
    /// Kept sources: the data folder's `sources/`, or `sources/` in the bucket with `storage`.
    private(set) var sources: any SourceStorage
    let runner: FoundationProcessRunner
    let logger: Logger

    init(
        dataFolder: DataFolder, store: any MetadataStore, sqlite: SQLiteStore?, jobWakeups: (any JobWakeupSource)?,
        sharedRateLimits: (any RateLimitStore)?, settings: ServerConfiguration, logger: Logger
    ) throws {
        self.dataFolder = dataFolder
        self.store = store
        self.sqlite = sqlite
        self.jobWakeups = jobWakeups
        self.sharedRateLimits = sharedRateLimits
        self.settings = settings
        self.logger = logger
        storage = LocalMediaStorage(root: dataFolder.mediaRoot)
        sources = SourceStore(dataFolder: dataFolder)
        runner = FoundationProcessRunner()
        try useStorage(settings)
    }

    /// Opens the library the settings name and runs `body` with it: PostgreSQL when
    /// `databaseUrl` is set (reached, migrated under its advisory lock, its pool running for
    /// the length of `body`), else the SQLite file in the data folder. Chosen here and nowhere
    /// else.
    ///
    /// `creating` is for the commands that start a library (`serve`, `import`, `user add`,
    /// `source pexels`, `bench-seed`); every other command refuses a data folder without a
    /// SQLite library, so a mistyped `--data` is named instead of reported as a healthy empty
    /// library. (On PostgreSQL the library is the database: the data folder is made as needed.)
    static func withLibrary<Result: Sendable>(
        dataPath: String, command: String, creating: Bool = false, logLevel: Logger.Level = .warning,
        configFile: String? = nil, flags: [String: String] = [:],
        _ body: (AppContext) async throws -> Result
    ) async throws -> Result {
        let dataFolder = DataFolder(root: URL(fileURLWithPath: dataPath))
        let settings = try loadSettings(dataFolder: dataFolder, command: command, explicitFile: configFile, flags: flags)
        var logger = Logger(label: "reelhouse")
        logger.logLevel = logLevel
        if let url = settings.databaseUrl {
            return try await withPostgres(url, dataFolder: dataFolder, settings: settings, command: command, logger: logger, body)
        }
        if !creating {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: dataFolder.root.path, isDirectory: &isDirectory), isDirectory.boolValue,
                  FileManager.default.fileExists(atPath: dataFolder.databasePath)
            else {
                throw CLIError("no Reelhouse library at \(dataFolder.root.path): check --data or REELHOUSE_DATA (serve, import and user add create one)")
            }
        }
        try prepare(dataFolder)
        let store: SQLiteStore
        do {
            store = try SQLiteStore(path: dataFolder.databasePath)
        } catch {
            throw CLIError("cannot open the database at \(dataFolder.databasePath): \(error)")
        }
        let context = try AppContext(
            dataFolder: dataFolder, store: store, sqlite: store, jobWakeups: nil, sharedRateLimits: nil, settings: settings, logger: logger
        )
        return try await body(context)
    }

    static func prepare(_ dataFolder: DataFolder) throws {
        do {
            try dataFolder.prepare()
        } catch {
            throw CLIError("\(error)")
        }
    }

    /// Published media, kept sources and (see `UploadSetup`) resumable uploads in the bucket the
    /// settings name (`storage = s3://…`), else the data folder. Work files stay local.
    private mutating func useStorage(_ settings: ServerConfiguration) throws {
        guard settings.usesObjectStorage, let setting = settings.storage else { return }
        let location: S3Location
        do {
            location = try S3Location(parsing: setting)
        } catch {
            throw CLIError("storage: \(error)")
        }
        // ConfigurationLoader refused a bucket without both keys.
        let credentials = S3Credentials(
            accessKeyID: settings.s3AccessKeyId ?? "", secretAccessKey: settings.s3SecretAccessKey ?? "", sessionToken: settings.s3SessionToken
        )
        let bucket = S3MediaStorage(
            client: S3Client(endpoint: location.endpoint, region: location.region, credentials: credentials), location: location, logger: logger
        )
        storage = bucket
        sources = S3SourceStorage(media: bucket)
        logger.info("published media in a bucket", metadata: ["storage": "\(location)"])
    }

    func transcodeHandler(configuration: PipelineConfiguration = PipelineConfiguration()) -> TranscodeJobHandler {
        TranscodeJobHandler(
            dataFolder: dataFolder, store: store, storage: storage, sources: sources, runner: runner,
            configuration: configuration, logger: logger
        )
    }

    /// The workers of the one job queue: transcodes (heavy: every core through ffmpeg, so
    /// `workerConcurrency` of them, default 1 on small machines) and the light kinds — upload
    /// imports, generation steps and the upkeep jobs, each seconds at most — on a worker of their own,
    /// so a person's upload or prompt never waits behind someone's long transcode. Both share
    /// the queue's leases, retries, backoff, deadlines and timeouts.
    func workers(
        settings: ServerConfiguration, light: [any JobHandler], wrap: (any JobHandler) -> any JobHandler = { $0 }
    ) -> [JobWorker] {
        [
            worker(settings: settings, wrap: wrap),
            JobWorker(
                store: store, wakeups: jobWakeups, activity: jobActivity, handlers: light, configuration: settings.lightWorker, logger: logger
            ),
        ]
    }

    /// Transcodes only (`import` waiting for its own jobs, the demo).
    func worker(settings: ServerConfiguration, wrap: (any JobHandler) -> any JobHandler = { $0 }) -> JobWorker {
        let handler = wrap(transcodeHandler(configuration: settings.pipeline))
        return JobWorker(
            store: store, wakeups: jobWakeups, activity: jobActivity, handlers: [handler], configuration: settings.transcodeWorker, logger: logger
        )
    }

    /// A command's settings: defaults < config file (`explicitFile`, else `<data>/config.json`
    /// when it exists) < `REELHOUSE_*` environment < `flags` (config keys).
    static func loadSettings(dataFolder: DataFolder, command: String, explicitFile: String?, flags: [String: String]) throws -> ServerConfiguration {
        let explicit = explicitFile.map { URL(fileURLWithPath: $0) }
        let file = explicit ?? dataFolder.root.appendingPathComponent("config.json")
        var data: Data?
        if FileManager.default.fileExists(atPath: file.path) {
            data = try Data(contentsOf: file)
        } else if explicit != nil {
            throw CLIError("\(command): config file \(file.path) does not exist")
        }
        do {
            return try ConfigurationLoader.load(file: data, environment: ProcessInfo.processInfo.environment, overrides: flags)
        } catch {
            throw CLIError("\(command): \(error)")
        }
    }

    var sweeper: Sweeper {
        Sweeper(dataFolder: dataFolder, library: store, jobs: store, storage: storage, logger: logger)
    }
}

/// A fatal CLI error: printed as one line on stderr, exit code 1.
struct CLIError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }

    /// Runs a store call, turning its refusals (a missing, blank or taken name) into one line
    /// that starts with the subcommand (`collection add: …`); a broken database stays itself.
    static func refusals<T>(_ command: String, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as StoreError {
            switch error {
            case .notFound(let what): throw CLIError("\(command): no \(what)")
            case .conflict(let why), .invalid(let why): throw CLIError("\(command): \(why)")
            case .corrupt, .unavailable, .failed: throw error
            }
        }
    }
}
