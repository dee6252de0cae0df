import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import ReelModels
import ReelPipeline
import ReelStorage
import ReelStorageLocal
import ReelStore
import ReelStoreSQLite
import ReelModels
import ReelStore
import ReelStoreSQLite
import Testing

@testable import ReelServer
import ReelTestFiles

/// A clock tests can move.
final class MediaTestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    init(_ start: Date) { current = start }

    var now: Date { lock.withLock { current } }

    func advance(_ seconds: TimeInterval) { lock.withLock { current += seconds } }
}

/// A real SQLite store and real files in a temporary data folder:
///
/// ```
/// <root>/secret                      canary outside the data folder
/// <root>/data/reelhouse.sqlite       canary where the database would be
/// <root>/data/media/<A>/…            encrypted video post A (one 720p rung)
/// <root>/data/media/<B>/…            video post B (240p), unencrypted, its own marker bytes
/// <root>/data/media/<C>/…            video post C whose listed files are symbolic links out
/// ```
final class MediaFixture: @unchecked Sendable {
    static let sqliteCanary = Data("CANARY-SQLITE-6d1f0c2a-never-serve-me".utf8)
    static let secretCanary = Data("CANARY-SECRET-0b9e77aa-never-serve-me".utf8)
    static let postBMarker = Data("POST-B-ONLY-c41d".utf8)
    static let passwdMarker = Data("root:x:0:0".utf8)
    static let canaries = [sqliteCanary, secretCanary, postBMarker, passwdMarker]

    let root: URL
    let data: DataFolder
    let store: SQLiteStore
    let storage: LocalMediaStorage
    let clock: MediaTestClock
    let tokens: MediaTokenSigner
    let images: ImageURLSigner
    let key = Data((0..<16).map { UInt8($0 * 7 + 3) })

    private(set) var postA: Post!
    private(set) var postB: Post!
    private(set) var postC: Post!
    /// Queued, never published.
    private(set) var pending: Post!

    /// 1000 bytes, every offset distinguishable.
    static let segment0 = Data((0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 / 256) })
    /// Larger than Hummingbird's 128 KB read chunk, to exercise streaming.
    static let download = Data((0..<(3 * 1024 * 1024 + 17)).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) })
    static let poster = Data([0xFF, 0xD8, 0xFF, 0xE0] + Array("poster-bytes".utf8))
    static let thumb = Data([0xFF, 0xD8, 0xFF, 0xE0] + Array("thumb-bytes".utf8))

    static let masterA = """
        #EXTM3U
        #EXT-X-VERSION:7
        #EXT-X-INDEPENDENT-SEGMENTS
        #EXT-X-STREAM-INF:BANDWIDTH=3000000,AVERAGE-BANDWIDTH=2500000,RESOLUTION=1280x720,FRAME-RATE=30.000,CODECS="avc1.64001f,mp4a.40.2"
        720p/index.m3u8

        """

    static let mediaA = """
        #EXTM3U
        #EXT-X-VERSION:7
        #EXT-X-TARGETDURATION:2
        #EXT-X-MEDIA-SEQUENCE:0
        #EXT-X-PLAYLIST-TYPE:VOD
        #EXT-X-INDEPENDENT-SEGMENTS
        #EXT-X-MAP:URI="init.mp4"
        #EXT-X-KEY:METHOD=AES-128,URI="../key",KEYFORMAT="identity"
        #EXTINF:2.000000,
        seg_00000.m4s
        #EXTINF:1.500000,
        seg_00001.m4s
        #EXT-X-ENDLIST

        """

    init() async throws {
        root = TemporaryFolder.fresh("reelhouse-media")
        data = DataFolder(root: root.appendingPathComponent("data", isDirectory: true))
        try data.prepare()
        try Self.secretCanary.write(to: root.appendingPathComponent("secret"))
        try Self.sqliteCanary.write(to: URL(fileURLWithPath: data.databasePath))
        store = try SQLiteStore.inMemory()
        // User 1, whom `MediaTestAuthMiddleware` signs in: a member, granted library 1 as every member is.
        _ = try await store.createUser(name: "ana", role: .member, passwordHash: "-", now: Date(timeIntervalSince1970: 0))
        storage = LocalMediaStorage(root: data.mediaRoot)
        clock = MediaTestClock(Date(timeIntervalSince1970: 1_800_000_000))
        tokens = MediaTokenSigner(secret: Data("test secret".utf8), windowSeconds: 3600, marginSeconds: 900)
        images = ImageURLSigner(secret: Data("test secret".utf8))

        postA = try await makePost("clip-a", hash: String(repeating: "a", count: 64), files: [
            "master.m3u8": Data(Self.masterA.utf8),
            "720p/index.m3u8": Data(Self.mediaA.utf8),
            "720p/init.mp4": Data("ftyp-init-a".utf8),
            "720p/seg_00000.m4s": Self.segment0,
            "720p/seg_00001.m4s": Data("segment-one-a".utf8),
            "poster.jpg": Self.poster,
            "thumb.jpg": Self.thumb,
            "download.mp4": Self.download,
        ], rung: "720p", key: key)

        let masterB = Self.masterA.replacingOccurrences(of: "720p", with: "240p")
        postB = try await makePost("clip-b", hash: String(repeating: "b", count: 64), files: [
            "master.m3u8": Data(masterB.utf8) + Self.postBMarker,
            "240p/index.m3u8": Data(Self.mediaA.replacingOccurrences(of: "#EXT-X-KEY:METHOD=AES-128,URI=\"../key\",KEYFORMAT=\"identity\"\n", with: "").utf8) + Self.postBMarker,
            "240p/init.mp4": Self.postBMarker,
            "240p/seg_00000.m4s": Self.postBMarker,
            "240p/seg_00001.m4s": Self.postBMarker,
            "poster.jpg": Self.postBMarker,
            "thumb.jpg": Self.postBMarker,
            "download.mp4": Self.postBMarker,
        ], rung: "240p", key: nil)

        // Post C: its listed names exist, but as symbolic links pointing out of its folder.
        let outside = root.appendingPathComponent("outside", isDirectory: true)
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try Self.secretCanary.write(to: outside.appendingPathComponent("index.m3u8"))
        try Self.secretCanary.write(to: outside.appendingPathComponent("init.mp4"))
        postC = try await makePost("clip-c", hash: String(repeating: "c", count: 64), files: [
            "master.m3u8": Data(Self.masterA.utf8),
            "720p/seg_00001.m4s": Data("fine".utf8),
            "poster.jpg": Self.poster,
            "thumb.jpg": Self.thumb,
            "download.mp4": Data("fine".utf8),
        ], rung: "720p", key: nil, mediaOnly: true)
        let folderC = data.mediaRoot.appendingPathComponent(String(postC.id))
        // A file link (to the canary) and a directory link (to a folder of canaries).
        try FileManager.default.createSymbolicLink(
            at: folderC.appendingPathComponent("720p/seg_00000.m4s"), withDestinationURL: root.appendingPathComponent("secret"))
        try FileManager.default.createSymbolicLink(at: folderC.appendingPathComponent("480p"), withDestinationURL: outside)

        pending = try await store.insertPost(
            NewPost(kind: .video, folderName: "clip-pending", metadata: PostMetadata(), contentHash: String(repeating: "d", count: 64),
                    sourcePaths: ["sources/\(String(repeating: "d", count: 64)).mp4"], dateAdded: clock.now),
            maxAttempts: 3, now: clock.now
        ).0
    }

    deinit {
        try? FileManager.default.removeItem(at: root)
    }

    private func makePost(_ folder: String, hash: String, files: [String: Data], rung: String, key: Data?, mediaOnly: Bool = false) async throws -> Post {
        let (post, _) = try await store.insertPost(
            NewPost(kind: .video, folderName: folder, metadata: PostMetadata(description: folder), contentHash: hash,
                    sourcePaths: ["sources/\(hash).mp4"], dateAdded: clock.now),
            maxAttempts: 3, now: clock.now
        )
        let folderURL = data.mediaRoot.appendingPathComponent(String(post.id), isDirectory: true)
        for (name, bytes) in files {
            let url = folderURL.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try bytes.write(to: url)
        }
        let rendition: Rendition
        if mediaOnly {
            // Post C lists names that are links on disk.
            rendition = Rendition(
                name: rung, width: 1280, height: 720, frameRate: 30, bandwidth: 3_000_000, averageBandwidth: 2_500_000,
                codecs: "avc1.64001f,mp4a.40.2", playlist: "480p/index.m3u8", initSegment: "480p/init.mp4",
                segments: ["\(rung)/seg_00000.m4s", "\(rung)/seg_00001.m4s"]
            )
        } else {
            rendition = Rendition(
                name: rung, width: 1280, height: 720, frameRate: 30, bandwidth: 3_000_000, averageBandwidth: 2_500_000,
                codecs: "avc1.64001f,mp4a.40.2", playlist: "\(rung)/index.m3u8", initSegment: "\(rung)/init.mp4",
                segments: ["\(rung)/seg_00000.m4s", "\(rung)/seg_00001.m4s"]
            )
        }
        let media = PublishedMedia(
            duration: 3.5, width: 1280, height: 720, hasSourceAudio: true, encrypted: key != nil,
            masterPlaylist: "master.m3u8", renditions: [rendition],
            poster: ImageFile(path: "poster.jpg", width: 1280, height: 720, contentHash: Self.hash16(files["poster.jpg"]!)),
            thumbnail: ImageFile(path: "thumb.jpg", width: 320, height: 180, contentHash: Self.hash16(files["thumb.jpg"]!)),
            download: "download.mp4", images: []
        )
        try await store.publish(postID: post.id, media: media, key: key)
        return try #require(try await store.post(id: post.id))
    }

    static func hash16(_ data: Data) -> String {
        String(ContentHasher.sha256(of: data).prefix(16))
    }

    // MARK: - URLs

    func token(_ post: Post) -> String { tokens.token(postID: post.id, now: clock.now) }

    /// What the media routes ask of a token's viewer (checked on every request here).
    var access: MediaAccess { MediaAccess(accounts: store, grants: store, lifetime: 0) }

    func mediaURL(_ post: Post, _ file: String, token: String? = nil) -> String {
        "/media/\(token ?? self.token(post))/\(post.id)/\(file)"
    }

    func imageURL(_ post: Post, _ image: ImageFile) -> String {
        "/img/\(images.signature(postID: post.id, contentHash: image.contentHash))/\(post.id)/\(image.contentHash)/\(image.path)"
    }

    // MARK: - Application

    /// The router as `buildApplication` wires it: error mapping, an identity for the test key,
    /// and both controllers through `APIRoutes`.
    /// `storage` replaces the fixture's local folder (media served from a bucket).
    func application(configuration: ApplicationConfiguration = .init(), storage: (any MediaStorage)? = nil) -> some ApplicationProtocol {
        let storage = storage ?? self.storage
        let router = Router(context: AppRequestContext.self)
        let registry = RouteRegistry()
        router.add(middleware: ErrorMiddleware(routes: registry))
        router.add(middleware: MediaTestAuthMiddleware())
        let clock = self.clock
        MediaController(library: store, storage: storage, tokens: tokens, images: images, access: access, now: { clock.now })
            .register(APIRoutes(router: router, registry: registry, tag: "media"))
        CompatMediaController(library: store, grants: store, storage: storage, keyScheme: "lockdown", now: { clock.now })
            .register(APIRoutes(router: router, registry: registry, tag: "compat"))
        return Application(router: router, configuration: configuration)
    }

    static func containsCanary(_ body: ByteBuffer) -> Bool {
        let bytes = Data(body.readableBytesView)
        return canaries.contains { bytes.range(of: $0) != nil }
    }
}

/// Stands in for the real `AuthMiddleware`: `api-key: good-key` signs in a member.
struct MediaTestAuthMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    static let goodKey = "good-key"

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        if let key = request.headers[HTTPField.Name("api-key")!] {
            guard key == Self.goodKey else { throw APIError.unauthorized }
            context.identity = Identity(
                user: User(id: 1, name: "ana", role: .member, createdAt: Date(timeIntervalSince1970: 0)), credential: .apiKey(id: 1))
        }
        return try await next(request, context)
    }
}

extension HTTPFields {
    static func media(_ pairs: [(String, String)]) -> HTTPFields {
        var fields = HTTPFields()
        for (name, value) in pairs { fields.append(HTTPField(name: HTTPField.Name(name)!, value: value)) }
        return fields
    }
}

// MARK: - Unit tests of the helpers

@Suite("Media helpers")
struct MediaSupportTests {
    @Test("Range header parsing", arguments: [
        ("bytes=0-99", 1000, ByteRange.range(0...99)),
        ("bytes=900-", 1000, .range(900...999)),
        ("bytes=-100", 1000, .range(900...999)),
        ("bytes=-5000", 1000, .range(0...999)),
        ("bytes=990-5000", 1000, .range(990...999)),
        ("bytes=999-999", 1000, .range(999...999)),
        ("BYTES = 0-0", 1000, .ignore),
        ("Bytes=0-0", 1000, .range(0...0)),
        ("bytes=1000-", 1000, .unsatisfiable),
        ("bytes=1000-2000", 1000, .unsatisfiable),
        ("bytes=-0", 1000, .unsatisfiable),
        ("bytes=0-0", 0, .unsatisfiable),
        ("bytes=-10", 0, .unsatisfiable),
        ("bytes=99999999999999999999999-", 1000, .unsatisfiable),
        ("bytes=0-99999999999999999999999", 1000, .range(0...999)),
        ("bytes=50-10", 1000, .ignore),
        ("bytes=0-99,200-299", 1000, .ignore),
        ("bytes=-", 1000, .ignore),
        ("bytes=a-b", 1000, .ignore),
        ("bytes=+1-2", 1000, .ignore),
        ("items=0-10", 1000, .ignore),
        ("bytes=0x10-", 1000, .ignore),
    ])
    func rangeParsing(header: String, size: Int, expected: ByteRange) {
        #expect(ByteRange.parse(header, size: size) == expected)
    }

    @Test("MIME types by name")
    func mimeTypes() {
        #expect(MediaType.of("master.m3u8") == "application/vnd.apple.mpegurl")
        #expect(MediaType.of("720p/seg_00000.m4s") == "video/iso.segment")
        #expect(MediaType.of("720p/init.mp4") == "video/mp4")
        #expect(MediaType.of("poster.jpg") == "image/jpeg")
        #expect(MediaType.of("image1_720.webp") == "image/webp")
        #expect(MediaType.of("key") == "application/octet-stream")
        #expect(MediaType.of("v1.2/noext") == "application/octet-stream")
        // The four the route's and the bucket's tables once disagreed on: one table now.
        #expect(MediaType.of("720p/seg_00000.ts") == "video/mp2t")
        #expect(MediaType.of("audio.aac") == "audio/aac")
        #expect(MediaType.of("image1_720.avif") == "image/avif")
        #expect(MediaType.of("subs/en.vtt") == "text/vtt; charset=utf-8")
    }

    @Test("If-None-Match comparison")
    func ifNoneMatch() {
        #expect(ETag.noneMatchHits("\"abc\"", etag: "\"abc\""))
        #expect(ETag.noneMatchHits("W/\"abc\"", etag: "\"abc\""))
        #expect(ETag.noneMatchHits("\"x\", \"abc\"", etag: "\"abc\""))
        #expect(ETag.noneMatchHits("*", etag: "\"abc\""))
        #expect(!ETag.noneMatchHits("\"abd\"", etag: "\"abc\""))
        #expect(!ETag.noneMatchHits("abc", etag: "\"abc\""))
    }

    @Test("Listed names must still look like pipeline output")
    func safeNames() {
        for good in ["master.m3u8", "720p/index.m3u8", "720p/seg_00000.m4s", "image1_320.jpg"] {
            #expect(MediaName.isSafeRelativePath(good), "\(good)")
        }
        for bad in ["", "..", "../x", "720p/../x", "/etc/passwd", "720p//x", "720p/", ".hidden", "a\\b", "a%2fb", "a b", "\u{2024}\u{2024}", "x\0y",
                    String(repeating: "a", count: 300)] {
            #expect(!MediaName.isSafeRelativePath(bad), "\(bad)")
        }
        #expect(MediaName.postID("12") == 12)
        for bad in ["012", "+12", "-1", "0", "1e3", "99999999999999999999", "", " 1"] {
            #expect(MediaName.postID(bad) == nil, "\(bad)")
        }
    }

    @Test("Host header validation for rewritten key URIs")
    func authorities() {
        for good in ["example.com", "example.com:8443", "127.0.0.1:8080", "[::1]:8080", "[2001:db8::1]", "localhost"] {
            #expect(CompatMediaController.isValidAuthority(good), "\(good)")
        }
        for bad in ["", "exa mple.com", "evil.com\"\n#EXT-X-KEY", "host:99999", "host:", ":80", "a/b", "[::1", "[::1]x", "user@host", "host:80:80"] {
            #expect(!CompatMediaController.isValidAuthority(bad), "\(bad)")
        }
    }

    @Test("Only URI-safe key schemes are written into playlists")
    func schemes() {
        for good in ["lockdown", "skd", "my-app+key.v1"] { #expect(CompatMediaController.isValidScheme(good), "\(good)") }
        for bad in ["", "1abc", "lock down", "a\"b", "https://x", "ló"] { #expect(!CompatMediaController.isValidScheme(bad), "\(bad)") }
    }

    @Test("Key URI rewriting keeps everything else")
    func rewriting() {
        let rewritten = HLSKeyRewriter.rewrite(MediaFixture.mediaA, keyURI: "lockdown://h:1/api/videos/f/key")
        #expect(rewritten == MediaFixture.mediaA.replacingOccurrences(of: "URI=\"../key\"", with: "URI=\"lockdown://h:1/api/videos/f/key\""))
        #expect(rewritten.contains("#EXT-X-MAP:URI=\"init.mp4\""))
        let crlf = "#EXTM3U\r\n#EXT-X-KEY:METHOD=AES-128,IV=0x01,URI=\"a,b\"\r\n#EXT-X-SESSION-KEY:URI=\"k\",METHOD=AES-128\r\n"
        #expect(HLSKeyRewriter.rewrite(crlf, keyURI: "s://h/k") == "#EXTM3U\r\n#EXT-X-KEY:METHOD=AES-128,IV=0x01,URI=\"s://h/k\"\r\n#EXT-X-SESSION-KEY:URI=\"s://h/k\",METHOD=AES-128\r\n")
        #expect(HLSKeyRewriter.rewrite(MediaFixture.masterA, keyURI: "x") == MediaFixture.masterA)
        #expect(HLSKeyRewriter.rewrite("#EXT-X-KEY:METHOD=NONE\n", keyURI: "x") == "#EXT-X-KEY:METHOD=NONE\n")
    }

    @Test("The post cache expires, is bounded and remembers only ready posts")
    func cache() async throws {
        let cache = ReadyPostCache<Int64>(capacity: 2, ttl: 3)
        let start = Date(timeIntervalSince1970: 1000)
        let media = PublishedMedia(duration: 1, width: 1, height: 1, hasSourceAudio: false, encrypted: false, masterPlaylist: "m.m3u8",
                                   renditions: [], poster: nil, thumbnail: nil, download: nil, images: [])
        func post(_ id: Int64, _ status: PostStatus) -> Post {
            Post(id: id, folderName: "p\(id)", kind: .video, status: status, metadata: PostMetadata(), dateAdded: start, contentHash: "h", media: media)
        }
        let loads = LoadCounter()
        _ = try await cache.entry(for: 1, now: start) { loads.hit(); return post(1, .ready) }
        _ = try await cache.entry(for: 1, now: start + 2.9) { loads.hit(); return post(1, .ready) }
        #expect(loads.count == 1)
        let gone = try await cache.entry(for: 1, now: start + 3) { loads.hit(); return nil }
        #expect(gone == nil && loads.count == 2)
        let queued = try await cache.entry(for: 2, now: start) { loads.hit(); return post(2, .processing) }
        #expect(queued == nil)
        for id in Int64(3)...10 { _ = try await cache.entry(for: id, now: start) { post(id, .ready) } }
        #expect(cache.count <= 2)
    }
}

final class LoadCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func hit() { lock.withLock { value += 1 } }
    var count: Int { lock.withLock { value } }
}
