import HTTPTypes
import NIOCore
import Foundation
import Hummingbird
import HummingbirdTesting
import ReelGenerationLocal
import ReelMedia
import ReelModels
import ReelPipeline
import ReelProcess
import ReelServer
import ReelStorage
import ReelStorageLocal
import ReelStore
import ReelStoreSQLite
import ReelTestSupport
import ReelTestFiles

/// A server on a throw-away library: a real SQLite database (in memory), real files in a temp
/// folder, real bcrypt (at the lowest cost, to keep tests fast).
struct TestServer {
    let store: SQLiteStore
    let root: URL
    let storage: LocalMediaStorage
    let configuration: ServerConfiguration
    let secret = Data("test secret that is long enough for hmac use".utf8)
    var owner: User!
    var ownerKey = ""
    var member: User!
    var memberKey = ""
    /// Prompt-to-clip generation with the local ffmpeg provider (the service is driven by
    /// the tests that need it; routes only list, read and change generations).
    let generations: GenerationDependencies
    static let password = "correct horse battery"

    init(configure: (inout ServerConfiguration) -> Void = { _ in }) async throws {
        store = try SQLiteStore.inMemory()
        root = TemporaryFolder.fresh("reel-server")
        storage = LocalMediaStorage(root: root.appendingPathComponent("media"))
        var configuration = ServerConfiguration()
        configure(&configuration)
        self.configuration = configuration
        let files = GenerationFiles(root: root.appendingPathComponent("generations"))
        let runner = FoundationProcessRunner()
        generations = GenerationDependencies(
            store: store, providers: [LocalCardProvider(runner: runner, workRoot: root.appendingPathComponent("generations/work"))],
            defaultProvider: "local", files: files,
            publish: GenerationPublisher(importer: Importer(
                dataFolder: DataFolder(root: root), store: store, runner: runner, limits: MediaLimits(), sources: SourceStore(dataFolder: DataFolder(root: root))
            ), files: files).publish
        )
        let hash = try await BcryptPasswordHasher(cost: 4).hash(Self.password)
        owner = try await store.createUser(name: "owner", role: .owner, passwordHash: hash, now: Date())
        member = try await store.createUser(name: "member", role: .member, passwordHash: hash, now: Date())
        ownerKey = try await makeKey(for: owner)
        memberKey = try await makeKey(for: member)
    }

    func makeKey(for user: User) async throws -> String {
        let key = Credentials.newAPIKey()
        _ = try await store.createAPIKey(userID: user.id, name: "test", keyHash: Credentials.hash(key), prefix: Credentials.displayPrefix(key), now: Date())
        return key
    }

    var dependencies: ServerDependencies {
        ServerDependencies(
            library: store, jobs: store, accounts: store, social: store, feed: store, forYou: store, search: store, libraries: store, catalog: store,
            collections: store, stories: store, events: store, storage: storage, sources: SourceStore(dataFolder: DataFolder(root: root)), passwords: BcryptPasswordHasher(cost: 4),
            secret: secret, generations: generations
        )
    }

    func router() -> (Router<AppRequestContext>, RouteRegistry) {
        buildRouter(configuration: configuration, dependencies: dependencies)
    }

    func application() -> some ApplicationProtocol {
        Application(router: router().0)
    }

    /// A ready video post with small but well-formed HLS files on disk (ReelTestSupport's maker).
    @discardableResult
    func publishVideo(
        name: String, tags: [String] = [], encrypted: Bool = true, kind: PostKind = .video, libraryID: Int64 = Post.defaultLibraryID
    ) async throws -> Post {
        try await TestMedia.publishVideo(
            name: name, store: store, mediaRoot: root.appendingPathComponent("media"), tags: tags, encrypted: encrypted, kind: kind,
            posterHash: "0123456789abcdef", libraryID: libraryID
        )
    }
}

extension TestClientProtocol {
    /// Sends a request and returns status, headers and body.
    func send(
        _ method: HTTPRequest.Method, _ uri: String, key: String? = nil, headers: HTTPFields = [:], json: String? = nil
    ) async throws -> (status: HTTPResponse.Status, headers: HTTPFields, body: Data) {
        var fields = headers
        if let key { fields[HTTPField.Name("api-key")!] = key }
        var body: ByteBuffer?
        if let json {
            fields[.contentType] = "application/json"
            body = ByteBuffer(string: json)
        }
        return try await execute(uri: uri, method: method, headers: fields, body: body) { response in
            (response.status, response.headers, Data(response.body.readableBytesView))
        }
    }
}

func decode<T: Decodable>(_ type: T.Type, _ data: Data) throws -> T {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return try decoder.decode(T.self, from: data)
}
