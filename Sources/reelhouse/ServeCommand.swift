import ArgumentParser
import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOPosix
import ReelJobs
import ReelModels
import ReelPipeline
import ReelServer
import ReelStorage
import ReelStore
import ReelStoreSQLite
import ServiceLifecycle
import UnixSignals

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the server (API, web client, media) with a transcode worker; --role api|worker|all splits them across nodes.",
        discussion: """
        Settings are layered: defaults < config file (--config, or <data>/config.json) < environment < flags.
        Also REELHOUSE_DATA (--data).

        \(ConfigurationSetting.helpText(defaults: .documentedDefaults))

        Secrets (config file, environment, or a file named by a flag; never a value on the command line):
        \(SecretSetting.helpText)
        """
    )

    @OptionGroup var dataOptions: DataOptions

    @Option(name: .long, help: "A JSON config file (default: <data>/config.json when it exists).")
    var config: String?

    /// Every setting's flag (listed below), parsed from the declarations (`ConfigurationSetting.all`).
    @Argument(parsing: .allUnrecognized, help: .hidden)
    var settingFlags: [String] = []

    @Flag(name: .long, help: "When the library is empty, generate and import a demo library (the server answers meanwhile).")
    var demo = false

    @Option(name: .long, help: "Cost of bcrypt password hashes (default 12).")
    var bcryptCost: UInt8 = 12

    func run() async throws {
        let flags: [String: String]
        do {
            flags = try ConfigurationFlags.parse(settingFlags)
        } catch {
            throw CLIError("serve: \(error)")
        }
        try await AppContext.withLibrary(
            dataPath: dataOptions.resolvedPath, command: "serve", creating: true, logLevel: .info, configFile: config, flags: flags
        ) { context in
            try await serve(context)
        }
    }

    private func serve(_ context: AppContext) async throws {
        var configuration = context.settings
        if configuration.webRoot == nil { configuration.webRoot = Self.defaultWebRoot() }
        if configuration.servesHTTP { try await Self.checkAddress(host: configuration.host, port: configuration.port) }
        let secret = try ServerSecret.load(dataFolder: context.dataFolder, configured: configuration.secret)
        let passwords = BcryptPasswordHasher(cost: bcryptCost)

        // Printed last, after the address, set apart from the start-up lines above it.
        var ownerNotice = ""
        if try await context.store.countUsers() == 0 {
            let password = Credentials.newSessionToken().prefix(16)
            do {
                _ = try await context.store.createUser(name: "owner", role: .owner, passwordHash: try await passwords.hash(String(password)), now: Date())
                ownerNotice = Self.ownerNotice(password: String(password))
            } catch StoreError.conflict {
                // Another node sharing the database created it at the same moment: its output shows the password.
            }
        }

        let metrics = MetricsRegistry()
        var services: [any Service] = []
        let node = try await NodeParts.make(context: context, configuration: configuration)
        if configuration.runsJobs {
            services += context.workers(settings: configuration, light: try await node.lightJobs()) {
                MeasuredJobHandler($0, metrics: metrics)
            } as [any Service]
        }
        // Made while the server answers, not before it listens (see DemoLibraryService); a
        // start stopped while it was being made finishes it.
        if demo, try await context.store.countPosts(status: nil) == 0 || DemoLibrary.isUnfinished(in: DemoLibraryService.folder(of: context)) {
            services.append(DemoLibraryService(context: context, runsJobs: configuration.runsJobs))
        }
        guard configuration.servesHTTP else {
            // `--role worker`: the jobs alone, as `reelhouse worker` runs them.
            let group = ServiceGroup(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: context.logger)
            print("Reelhouse worker started (role worker: no HTTP)" + ownerNotice)
            fflush(nil)
            try await group.run()
            return
        }
        let store = context.store
        // The bench baseline is SQLite's own query; nil on PostgreSQL leaves its route out.
        var orderByRandomBaseline: (@Sendable (_ userID: Int64, _ limit: Int) async throws -> [FeedItem])?
        if let sqlite = context.sqlite {
            orderByRandomBaseline = { userID, limit in try await sqlite.orderByRandomBaseline(userID: userID, limit: limit) }
        }
        let dependencies = ServerDependencies(
            library: store, jobs: store, accounts: store, social: store,
            feed: store, forYou: store, search: store, libraries: store, catalog: store, collections: store,
            stories: store, events: store,
            storage: context.storage, sources: context.sources, passwords: passwords, secret: secret,
            orderByRandomBaseline: orderByRandomBaseline,
            generations: node.generations, uploads: node.uploads,
            rateLimits: context.sharedRateLimits ?? MemoryRateLimitStore(), jobActivity: context.jobActivity
        )
        let host = configuration.host
        let notice = ownerNotice
        let app = buildApplication(
            configuration: configuration, dependencies: dependencies, services: services, metrics: metrics, logger: context.logger
        ) { port in
            print("Reelhouse is listening on http://\(host):\(port)/" + notice)
            fflush(nil)  // flush every stream: stdout is a file or pipe under a supervisor
        }
        do {
            try await app.runService()
        } catch let error as IOError {
            throw Self.listenError(error, host: host, port: configuration.port) ?? error
        }
    }

    /// Binds the address once and lets it go, before anything touches the data folder: a busy
    /// port is said at once, not after the job workers (and a demo library being made) have
    /// started and stopped on a folder another server is using. (`runService` still reports a port taken
    /// in between.)
    static func checkAddress(host: String, port: Int) async throws {
        guard port != 0 else { return }
        do {
            let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .bind(host: host, port: port).get()
            try await channel.close()
        } catch let error as IOError {
            throw listenError(error, host: host, port: port) ?? error
        }
    }

    static func listenError(_ error: IOError, host: String, port: Int) -> CLIError? {
        switch error.errnoCode {
        case EADDRINUSE: CLIError("serve: port \(port) is in use: choose another with --port or REELHOUSE_PORT")
        case EADDRNOTAVAIL: CLIError("serve: cannot listen on \(host): no such address on this machine (--host or REELHOUSE_HOST)")
        case EACCES: CLIError("serve: port \(port) needs more privileges: choose one above 1023 with --port or REELHOUSE_PORT")
        default: nil
        }
    }

    /// The new owner account's password, shown this once, as a block of its own.
    static func ownerNotice(password: String) -> String {
        """


        ┌ The owner account was created. Its password is shown this once:
        │   username: owner
        │   password: \(password)
        └ Sign in with it, then change it under Profile.

        """
    }

    /// The web client ships in the repository's `Web/` folder: found from the working directory
    /// (`make run`), next to the built binary (`.build/<config>/reelhouse`), or where
    /// `make install` puts it (`<prefix>/share/reelhouse/Web` beside `<prefix>/bin`).
    static func defaultWebRoot() -> String? {
        // The running binary itself (found through /proc on Linux even when started from PATH).
        let executable = (Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])).resolvingSymlinksInPath()
        let candidates = [
            URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("Web"),
            executable.deletingLastPathComponent().appendingPathComponent("../share/reelhouse/Web").standardizedFileURL,
            executable.deletingLastPathComponent().appendingPathComponent("../../../Web").standardizedFileURL,
            executable.deletingLastPathComponent().appendingPathComponent("../../Web").standardizedFileURL,
        ]
        return candidates.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("index.html").path) }?.path
    }
}
