import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Hummingbird
import Logging
import ReelJobs
import NIOCore
import NIOPosix
import ReelLibrary
import ReelMedia
import ReelModels
import ReelPipeline
import ReelProcess
import ReelServer
import ReelStorage
import ReelStorageLocal
import ReelStore
import ReelStoreSQLite
import ServiceLifecycle
import ReelTestFiles

/// The real `reelhouse` application (ReelServer's `buildApplication`) listening on
/// 127.0.0.1, over a SQLite file and media files in a temp folder. It can be stopped and
/// started again on the same port with the same library, as a server restart would.
public actor LiveServer {
    public nonisolated let root: URL
    public nonisolated let store: SQLiteStore
    public nonisolated let port: Int
    public nonisolated let baseURL: URL
    /// The signing secret; `rotateSecret()` before a restart makes every URL and cursor stale.
    public private(set) var secret = Data("reelkit integration secret, long enough for hmac".utf8)
    /// Signed URLs live this long (a few seconds to watch a real expiry).
    public private(set) var tokenWindowSeconds = 3600
    public static let password = "correct horse battery"
    public nonisolated let ownerKey: String
    public nonisolated let videoIDs: [Int64]
    public nonisolated let postCount: Int
    /// How long the last PATCH waits for the upload's import (the `uploadImportWaitSeconds` setting).
    public private(set) var importWait: Duration = .seconds(20)
    private var group: ServiceGroup?
    private var running: Task<Void, any Error>?
    /// Settings a test changes (a low rate limit, say), applied at every `start()`.
    private var adjustments: [@Sendable (inout ServerConfiguration) -> Void] = []
    /// Why the last `start()`'s services ended with an error, if they did.
    private var startFailure: String?

    /// `videos` posts with small but well-formed HLS files on disk, plus `synthetic` posts
    /// from the store's bulk generator (metadata only: their media files do not exist).
    public init(videos: Int, synthetic: Int) async throws {
        root = TemporaryFolder.fresh("reelkit-live")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        store = try SQLiteStore(path: root.appendingPathComponent("reelhouse.sqlite").path)
        port = try await FreePorts.one()
        baseURL = URL(string: "http://127.0.0.1:\(port)/")!
        let hash = try await BcryptPasswordHasher(cost: 4).hash(Self.password)
        let owner = try await store.createUser(name: "owner", role: .owner, passwordHash: hash, now: Date())
        let key = Credentials.newAPIKey()
        _ = try await store.createAPIKey(userID: owner.id, name: "reelkit", keyHash: Credentials.hash(key), prefix: Credentials.displayPrefix(key), now: Date())
        ownerKey = key
        var ids: [Int64] = []
        for index in 0..<videos {
            let post = try await TestMedia.publishVideo(
                name: "clip-\(index)", store: store, mediaRoot: root.appendingPathComponent("media"), tags: ["live"], segments: 2, segmentBytes: 20_000, withDownload: true
            )
            ids.append(post.id)
        }
        videoIDs = ids
        try store.insertSyntheticPosts(count: synthetic, tagsPerPost: 2, now: Date())
        postCount = videos + synthetic
    }

    public func start() async throws {
        guard running == nil else { return }
        var configuration = ServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = port
        configuration.worker = false
        configuration[AccountSettings.self].credentialCacheSeconds = 0
        configuration[MediaSettings.self].mediaTokenWindowSeconds = tokenWindowSeconds
        configuration[MediaSettings.self].mediaTokenMarginSeconds = tokenWindowSeconds < 3600 ? 0 : configuration[MediaSettings.self].mediaTokenMarginSeconds
        for adjust in adjustments { adjust(&configuration) }
        // Uploads import through real ffprobe on a worker for upload imports only; no
        // transcode worker runs, so the posts' transcode jobs stay queued.
        let dataFolder = DataFolder(root: root)
        let policy = UploadPolicy(maxBytes: Int64(configuration[UploadSettings.self].uploadMaxBytes), compressAboveBytes: Int64(configuration[UploadSettings.self].uploadCompressAboveBytes))
        let importer = Importer(dataFolder: dataFolder, store: store, runner: FoundationProcessRunner(), limits: .default, sources: SourceStore(dataFolder: dataFolder))
        let uploadStorage = LocalUploadStorage(root: dataFolder.uploadsRoot)
        let uploads = UploadDependencies(
            storage: uploadStorage, imports: UploadImports(jobs: store, storage: uploadStorage), policy: policy, importWait: importWait
        )
        let activity = JobActivity()
        let importWorker = JobWorker(
            store: store, activity: activity,
            handlers: [UploadImportJobHandler(
                storage: uploadStorage, publisher: UploadPublisher(importer: importer, store: store, policy: policy),
                logger: Logger(label: "reelkit-live-imports", factory: { _ in SwiftLogNoOpLogHandler() })
            )],
            configuration: JobWorkerConfiguration(pollInterval: 0.05),
            logger: Logger(label: "reelkit-live-worker", factory: { _ in SwiftLogNoOpLogHandler() })
        )
        let dependencies = ServerDependencies(
            library: store, jobs: store, accounts: store, social: store, feed: store, forYou: store, search: store, libraries: store, catalog: store, collections: store,
            stories: store, events: store,
            storage: LocalMediaStorage(root: root.appendingPathComponent("media")), passwords: BcryptPasswordHasher(cost: 4), secret: secret,
            uploads: uploads, jobActivity: activity
        )
        var logger = Logger(label: "reelkit-live-server")
        logger.logLevel = .critical
        let app = buildApplication(configuration: configuration, dependencies: dependencies, logger: logger)
        let group = ServiceGroup(configuration: .init(services: [app, importWorker], gracefulShutdownSignals: [], logger: logger))
        self.group = group
        startFailure = nil
        running = Task {
            do { try await group.run() } catch { self.startFailure = String(describing: error); throw error }
        }
        try await waitUntilAnswering()
    }

    public func rotateSecret() {
        secret = Data("a rotated secret, also long enough for the hmac keys".utf8)
    }

    public func setTokenWindow(_ seconds: Int) {
        tokenWindowSeconds = seconds
    }

    /// Changes a setting from the next `start()` on.
    public func configure(_ change: @escaping @Sendable (inout ServerConfiguration) -> Void) {
        adjustments.append(change)
    }

    /// Takes effect at the next `start()`.
    public func answerUploadsWithin(_ wait: Duration) {
        importWait = wait
    }

    public func stop() async {
        await group?.triggerGracefulShutdown()
        _ = try? await running?.value
        group = nil
        running = nil
    }

    public func remove() {
        try? FileManager.default.removeItem(at: root)
    }

    /// Polls `/health` until the listener is up (a few milliseconds in practice; the generous
    /// deadline is for a debug build on a loaded machine). A server that stopped meanwhile
    /// (a restart that could not bind its port again, say) is reported with its error at once.
    private func waitUntilAnswering() async throws {
        let url = baseURL.appendingPathComponent("health")
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if let (_, response) = try? await URLSession.shared.data(from: url), (response as? HTTPURLResponse)?.statusCode == 200 { return }
            if let startFailure { throw LiveServerError.stopped(port: port, startFailure) }
            try await Task.sleep(for: .milliseconds(25))
        }
        throw LiveServerError.notAnswering(port: port)
    }
}

/// Runs `body` against a started server and always stops and deletes it afterwards.
public func withLiveServer(
    videos: Int, synthetic: Int, tokenWindowSeconds: Int = 3600, configure: (@Sendable (inout ServerConfiguration) -> Void)? = nil,
    isolation: isolated (any Actor)? = #isolation, _ body: (LiveServer) async throws -> Void
) async throws {
    let server = try await LiveServer(videos: videos, synthetic: synthetic)
    await server.setTokenWindow(tokenWindowSeconds)
    if let configure { await server.configure(configure) }
    try await server.start()
    do {
        try await body(server)
    } catch {
        await server.stop()
        await server.remove()
        throw error
    }
    await server.stop()
    await server.remove()
}

/// A live server that did not come up: what a test sees instead of waiting on it forever.
public enum LiveServerError: Error, CustomStringConvertible {
    case stopped(port: Int, String)
    case notAnswering(port: Int)

    public var description: String {
        switch self {
        case let .stopped(port, reason): "the live server on port \(port) stopped while starting: \(reason)"
        case let .notAnswering(port): "the live server on port \(port) did not answer /health within 30 s"
        }
    }
}
