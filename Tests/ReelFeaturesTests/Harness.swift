import Foundation
import ReelFeatures
import ReelKit
import ReelKitTestDoubles
import ReelModels
import ReelServer
import ReelStore
import ReelStoreSQLite
import ReelTestFiles
import ReelTestSupport
import Testing

/// What the screen-model tests share: a live server on 127.0.0.1, a manual clock, a fresh
/// folder for the app's files, and contexts or app models signed in as the owner or a member.
@MainActor
final class Harness {
    let server: LiveServer
    let clock = ManualModelClock(Date())
    let folder = TemporaryFolder.fresh("reelfeatures")
    let network: ConditionedTransport

    init(server: LiveServer, network: ConditionedTransport = ConditionedTransport()) {
        self.server = server
        self.network = network
    }

    var files: LocalFileSystem { LocalFileSystem(root: folder) }

    func client(_ credentials: ReelCredentials? = nil) -> ReelClient {
        ReelClient(baseURL: server.baseURL, credentials: credentials ?? .apiKey(server.ownerKey), transport: network)
    }

    /// A signed-in context; `signedOut` records the 401 that ended it.
    func context(_ credentials: ReelCredentials? = nil, files: (any CacheFileSystem)? = nil, signedOut: SignedOutLog? = nil) async throws -> FeatureContext {
        let client = client(credentials)
        let account = try await client.account()
        return FeatureContext(
            client: client, clock: clock, files: files ?? self.files, account: account,
            eventPolicy: EventRecorderPolicy(batchSize: 50, flushInterval: 3600), onSignedOut: { signedOut?.errors.append($0) }
        )
    }

    func appEnvironment(slots: [RecordingSlot] = [RecordingSlot(), RecordingSlot(), RecordingSlot()]) -> AppEnvironment {
        let network = network, root = folder
        return AppEnvironment(
            client: { ReelClient(baseURL: $0, credentials: $1, transport: network) }, clock: clock,
            files: { server, user in LocalFileSystem(root: root.appendingPathComponent(AppEnvironment.folderName(server: server, user: user))) },
            eventPolicy: EventRecorderPolicy(batchSize: 50, flushInterval: 3600),
            makeSlots: { _ in slots.map(AnyPlayerSlot.init) }
        )
    }

    /// A member with the live server's password, and a client signed in as her.
    func member(_ name: String = "mia") async throws -> ReelClient {
        let hash = try await BcryptPasswordHasher(cost: 4).hash(LiveServer.password)
        _ = try await server.store.createUser(name: name, role: .member, passwordHash: hash, now: Date())
        let client = client(ReelCredentials.none)
        try await client.login(username: name, password: LiveServer.password)
        return client
    }

    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }
}

@MainActor
final class SignedOutLog {
    var errors: [ScreenError] = []
}

/// Runs `body` with a started live server and a harness, and always cleans both up.
@MainActor
func withHarness(
    videos: Int = 4, synthetic: Int = 0, tokenWindowSeconds: Int = 3600, configure: (@Sendable (inout ServerConfiguration) -> Void)? = nil,
    _ body: (Harness) async throws -> Void
) async throws {
    try await withLiveServer(videos: videos, synthetic: synthetic, tokenWindowSeconds: tokenWindowSeconds, configure: configure) { server in
        let harness = Harness(server: server)
        defer { harness.remove() }
        try await body(harness)
    }
}

/// Waits (real time, bounded) until `condition` holds: for work the models start in the
/// background (a debounce that slept, an upload's progress).
@MainActor
func eventually(_ seconds: Double = 60, _ condition: () async -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return await condition()
}
