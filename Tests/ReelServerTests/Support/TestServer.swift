import HTTPTypes
import NIOCore
import Foundation
import Hummingbird
import HummingbirdTesting
import ReelMedia
import ReelModels
import ReelPipeline
import ReelServer
import ReelStore
import ReelStoreSQLite

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
        root = FileManager.default.temporaryDirectory.appendingPathComponent("reel-server-\(UUID().uuidString)")
        storage = LocalMediaStorage(root: root.appendingPathComponent("media"))
        var configuration = ServerConfiguration()
        configure(&configuration)
        self.configuration = configuration
        let files = GenerationFiles(root: root.appendingPathComponent("generations"))
        let runner = FoundationProcessRunner()
        generations = GenerationDependencies(
            store: store, providers: [LocalCardProvider(runner: runner, workRoot: root.appendingPathComponent("generations/work"))],
            defaultProvider: "local", files: files,
            publisher: GenerationPublisher(importer: Importer(dataFolder: DataFolder(root: root), store: store, runner: runner, limits: MediaLimits()), files: files)
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
            library: store, jobs: store, accounts: store, social: store, feed: store, storage: storage,
            passwords: BcryptPasswordHasher(cost: 4), secret: secret, generations: generations
        )
    }

    func router() -> (Router<AppRequestContext>, RouteRegistry) {
        buildRouter(configuration: configuration, dependencies: dependencies)
    }

    func application() -> some ApplicationProtocol {
        Application(router: router().0)
    }

    /// A ready video post with small but well-formed HLS files on disk.
    @discardableResult
    func publishVideo(name: String, tags: [String] = [], encrypted: Bool = true, kind: PostKind = .video) async throws -> Post {
        let (post, _) = try await store.insertPost(
            NewPost(kind: kind, folderName: name, metadata: PostMetadata(description: "about \(name)", uploader: "Up", username: "up", tags: tags),
                    contentHash: UUID().uuidString, sourcePaths: ["sources/\(name).mp4"], dateAdded: Date()),
            maxAttempts: 3, now: Date()
        )
        let folder = root.appendingPathComponent("media/\(post.id)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("240p"), withIntermediateDirectories: true)
        let master = "#EXTM3U\n#EXT-X-INDEPENDENT-SEGMENTS\n#EXT-X-STREAM-INF:BANDWIDTH=400000,AVERAGE-BANDWIDTH=300000,RESOLUTION=240x426,CODECS=\"avc1.64001e,mp4a.40.2\",FRAME-RATE=30.000\n240p/index.m3u8\n"
        var media = "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-INDEPENDENT-SEGMENTS\n#EXT-X-MAP:URI=\"init.mp4\"\n"
        if encrypted { media += "#EXT-X-KEY:METHOD=AES-128,URI=\"../key\"\n" }
        media += "#EXTINF:2.000000,\nseg_00000.m4s\n#EXT-X-ENDLIST\n"
        try Data(master.utf8).write(to: folder.appendingPathComponent("master.m3u8"))
        try Data(media.utf8).write(to: folder.appendingPathComponent("240p/index.m3u8"))
        try Data(repeating: 1, count: 100).write(to: folder.appendingPathComponent("240p/init.mp4"))
        try Data((0..<1000).map { UInt8($0 % 251) }).write(to: folder.appendingPathComponent("240p/seg_00000.m4s"))
        try Data(repeating: 7, count: 50).write(to: folder.appendingPathComponent("poster.jpg"))
        let published = PublishedMedia(
            duration: 2, width: 240, height: 426, hasSourceAudio: true, encrypted: encrypted, masterPlaylist: "master.m3u8",
            renditions: [Rendition(name: "240p", width: 240, height: 426, frameRate: 30, bandwidth: 400_000, averageBandwidth: 300_000,
                                   codecs: "avc1.64001e,mp4a.40.2", playlist: "240p/index.m3u8", initSegment: "240p/init.mp4",
                                   segments: ["240p/seg_00000.m4s"])],
            poster: ImageFile(path: "poster.jpg", width: 240, height: 426, contentHash: "0123456789abcdef"),
            thumbnail: nil, download: nil, images: []
        )
        try await store.publish(postID: post.id, media: published, key: encrypted ? Data(repeating: 9, count: 16) : nil)
        return try await store.post(id: post.id)!
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
