import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import ReelModels
import ReelStore
import ReelStoreSQLite
import ReelModels
import ReelStore
import ReelStoreSQLite
import Testing

@testable import ReelServer

/// `/media/{token}/{id}/{file+}` and `/img/{sig}/{id}/{hash}/{file}` end to end over the router.
@Suite("Signed media routes")
struct MediaRouteTests {
    static func body(_ response: TestResponse) -> Data { Data(response.body.readableBytesView) }

    @Test("A valid token serves the master playlist with immutable caching")
    func validToken() async throws {
        let fixture = try await MediaFixture()
        try await fixture.application().test(.router) { client in
            let response = try await client.execute(uri: fixture.mediaURL(fixture.postA, "master.m3u8"), method: .get)
            #expect(response.status == .ok)
            #expect(Self.body(response) == Data(MediaFixture.masterA.utf8))
            #expect(response.headers[.contentType] == "application/vnd.apple.mpegurl")
            #expect(response.headers[.cacheControl] == "public, max-age=31536000, immutable")
            #expect(response.headers[.acceptRanges] == "bytes")
            #expect(response.headers[HTTPField.Name("X-Content-Type-Options")!] == "nosniff")
            let etag = try #require(response.headers[.eTag])
            #expect(etag.hasPrefix("\"") && etag.hasSuffix("\"") && !etag.hasPrefix("W/"))

            // The rendition playlist is served byte for byte: its `../key` resolves next to the token.
            let media = try await client.execute(uri: fixture.mediaURL(fixture.postA, "720p/index.m3u8"), method: .get)
            #expect(media.status == .ok)
            #expect(Self.body(media) == Data(MediaFixture.mediaA.utf8))
        }
    }

    @Test("Content types of segments, init sections, downloads and images")
    func contentTypes() async throws {
        let fixture = try await MediaFixture()
        try await fixture.application().test(.router) { client in
            let expectations = [
                ("720p/seg_00000.m4s", "video/iso.segment"), ("720p/init.mp4", "video/mp4"), ("download.mp4", "video/mp4"),
                ("poster.jpg", "image/jpeg"),
            ]
            for (file, type) in expectations {
                let response = try await client.execute(uri: fixture.mediaURL(fixture.postA, file), method: .get)
                #expect(response.status == .ok, "\(file)")
                #expect(response.headers[.contentType] == type, "\(file)")
            }
        }
    }

    @Test("A large file is streamed whole and in ranges")
    func streaming() async throws {
        let fixture = try await MediaFixture()
        try await fixture.application().test(.router) { client in
            let whole = try await client.execute(uri: fixture.mediaURL(fixture.postA, "download.mp4"), method: .get)
            #expect(whole.status == .ok)
            #expect(whole.headers[.contentLength] == String(MediaFixture.download.count))
            #expect(Self.body(whole) == MediaFixture.download)

            let start = 1_000_000, end = 2_500_000
            let part = try await client.execute(
                uri: fixture.mediaURL(fixture.postA, "download.mp4"), method: .get, headers: [.range: "bytes=\(start)-\(end)"])
            #expect(part.status == .partialContent)
            #expect(part.headers[.contentRange] == "bytes \(start)-\(end)/\(MediaFixture.download.count)")
            #expect(Self.body(part) == MediaFixture.download[start...end])
        }
    }

    @Test("A tampered token is 403")
    func tamperedToken() async throws {
        let fixture = try await MediaFixture()
        try await fixture.application().test(.router) { client in
            let token = fixture.token(fixture.postA)
            for index in [0, 5, 12, token.count / 2, token.count - 1] {
                var characters = Array(token)
                characters[index] = characters[index] == "A" ? "B" : "A"
                let response = try await client.execute(uri: fixture.mediaURL(fixture.postA, "master.m3u8", token: String(characters)), method: .get)
                #expect(response.status == .forbidden, "flipped character \(index)")
                #expect(response.headers[.cacheControl] == "no-store")
            }
            for bad in ["x", "!!!!", String(repeating: "A", count: 200), "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"] {
                let response = try await client.execute(uri: fixture.mediaURL(fixture.postA, "master.m3u8", token: bad), method: .get)
                #expect(response.status == .forbidden, "\(bad)")
            }
        }
    }

    @Test("Post A's token used on post B is 403, for files and for the key")
    func tokenForAnotherPost() async throws {
        let fixture = try await MediaFixture()
        try await fixture.application().test(.router) { client in
            let tokenA = fixture.token(fixture.postA)
            for file in ["master.m3u8", "240p/index.m3u8", "key"] {
                let response = try await client.execute(uri: fixture.mediaURL(fixture.postB, file, token: tokenA), method: .get)
                #expect(response.status == .forbidden, "\(file)")
                #expect(!MediaFixture.containsCanary(response.body))
            }
            let tokenB = fixture.token(fixture.postB)
            let key = try await client.execute(uri: fixture.mediaURL(fixture.postA, "key", token: tokenB), method: .get)
            #expect(key.status == .forbidden)
            #expect(Self.body(key).range(of: fixture.key) == nil)
        }
    }

    @Test("An expired token is 410 with code expired")
    func expiredToken() async throws {
        let fixture = try await MediaFixture()
        let old = fixture.tokens.token(postID: fixture.postA.id, now: fixture.clock.now.addingTimeInterval(-3 * 86400))
        try await fixture.application().test(.router) { client in
            let response = try await client.execute(uri: fixture.mediaURL(fixture.postA, "master.m3u8", token: old), method: .get)
            #expect(response.status == .gone)
            let error = try JSONDecoder().decode(APIErrorBody.self, from: Self.body(response))
            #expect(error.error.code == "expired")
            // The token of the current window keeps working until its expiry, then it is gone.
            let current = fixture.token(fixture.postA)
            #expect(try await client.execute(uri: fixture.mediaURL(fixture.postA, "master.m3u8", token: current), method: .get).status == .ok)
            fixture.clock.advance(3600 + 900 + 1)
            #expect(try await client.execute(uri: fixture.mediaURL(fixture.postA, "master.m3u8", token: current), method: .get).status == .gone)
        }
    }

    @Test("Unknown, not-ready and unlisted are 404")
    func notFound() async throws {
        let fixture = try await MediaFixture()
        try await fixture.application().test(.router) { client in
            let pending = try await client.execute(uri: fixture.mediaURL(fixture.pending, "master.m3u8"), method: .get)
            #expect(pending.status == .notFound)
            let missingID: Int64 = 987_654
            let missing = try await client.execute(
                uri: "/media/\(fixture.tokens.token(postID: missingID, now: fixture.clock.now))/\(missingID)/master.m3u8", method: .get)
            #expect(missing.status == .notFound)
            let unlisted = try await client.execute(uri: fixture.mediaURL(fixture.postA, "720p/seg_00099.m4s"), method: .get)
            #expect(unlisted.status == .notFound)
            let unencryptedKey = try await client.execute(uri: fixture.mediaURL(fixture.postB, "key"), method: .get)
            #expect(unencryptedKey.status == .notFound)
        }
    }

    @Test("The key: 16 bytes, octet-stream, never cached; HEAD has its length")
    func key() async throws {
        let fixture = try await MediaFixture()
        try await fixture.application().test(.router) { client in
            let response = try await client.execute(uri: fixture.mediaURL(fixture.postA, "key"), method: .get)
            #expect(response.status == .ok)
            #expect(Self.body(response) == fixture.key)
            #expect(response.headers[.contentType] == "application/octet-stream")
            #expect(response.headers[.cacheControl] == "private, no-store")
            #expect(response.headers[HTTPField.Name("X-Content-Type-Options")!] == "nosniff")
            #expect(response.headers[.eTag] == nil)

            let head = try await client.execute(uri: fixture.mediaURL(fixture.postA, "key"), method: .head)
            #expect(head.status == .ok)
            #expect(head.headers[.contentLength] == "16")
            #expect(head.body.readableBytes == 0)
        }
    }

    @Test("Ranges: first bytes, suffix, open-ended, unsatisfiable, several, If-Range")
    func ranges() async throws {
        let fixture = try await MediaFixture()
        let segment = MediaFixture.segment0
        try await fixture.application().test(.router) { client in
            let uri = fixture.mediaURL(fixture.postA, "720p/seg_00000.m4s")
            func get(_ range: String, _ extra: [(String, String)] = []) async throws -> TestResponse {
                try await client.execute(uri: uri, method: .get, headers: .media([("Range", range)] + extra))
            }

            let first = try await get("bytes=0-99")
            #expect(first.status == .partialContent)
            #expect(first.headers[.contentRange] == "bytes 0-99/1000")
            #expect(first.headers[.contentLength] == "100")
            #expect(Self.body(first) == segment.prefix(100))
            #expect(first.headers[.cacheControl] == "public, max-age=31536000, immutable")

            let suffix = try await get("bytes=-100")
            #expect(suffix.status == .partialContent)
            #expect(suffix.headers[.contentRange] == "bytes 900-999/1000")
            #expect(Self.body(suffix) == segment.suffix(100))

            let open = try await get("bytes=950-")
            #expect(open.status == .partialContent)
            #expect(open.headers[.contentRange] == "bytes 950-999/1000")
            #expect(Self.body(open) == segment.suffix(50))

            let clamped = try await get("bytes=990-5000")
            #expect(clamped.status == .partialContent)
            #expect(clamped.headers[.contentRange] == "bytes 990-999/1000")

            for unsatisfiable in ["bytes=1000-", "bytes=5000-6000", "bytes=-0"] {
                let response = try await get(unsatisfiable)
                #expect(response.status == .rangeNotSatisfiable, "\(unsatisfiable)")
                #expect(response.headers[.contentRange] == "bytes */1000", "\(unsatisfiable)")
                let error = try JSONDecoder().decode(APIErrorBody.self, from: Self.body(response))
                #expect(error.error.code == "range_not_satisfiable")
            }

            // Several ranges, or nonsense: the whole file (documented in MediaFileResponder).
            for ignored in ["bytes=0-9,20-29", "bytes=50-10", "lines=1-2", "bytes=abc"] {
                let response = try await get(ignored)
                #expect(response.status == .ok, "\(ignored)")
                #expect(Self.body(response) == segment, "\(ignored)")
            }

            let etag = try #require(first.headers[.eTag])
            let matching = try await get("bytes=0-9", [("If-Range", etag)])
            #expect(matching.status == .partialContent)
            let stale = try await get("bytes=0-9", [("If-Range", "\"stale\"")])
            #expect(stale.status == .ok)
            #expect(Self.body(stale) == segment)
        }
    }

    @Test("HEAD: headers and Content-Length, no body")
    func head() async throws {
        let fixture = try await MediaFixture()
        try await fixture.application().test(.router) { client in
            let uri = fixture.mediaURL(fixture.postA, "720p/seg_00000.m4s")
            let head = try await client.execute(uri: uri, method: .head)
            #expect(head.status == .ok)
            #expect(head.headers[.contentLength] == "1000")
            #expect(head.headers[.contentType] == "video/iso.segment")
            #expect(head.headers[.eTag] != nil)
            #expect(head.body.readableBytes == 0)

            let ranged = try await client.execute(uri: uri, method: .head, headers: [.range: "bytes=0-99"])
            #expect(ranged.status == .partialContent)
            #expect(ranged.headers[.contentLength] == "100")
            #expect(ranged.body.readableBytes == 0)

            let big = try await client.execute(uri: fixture.mediaURL(fixture.postA, "download.mp4"), method: .head)
            #expect(big.headers[.contentLength] == String(MediaFixture.download.count))
            #expect(big.body.readableBytes == 0)
        }
    }

    @Test("If-None-Match: 304 for the current ETag, 200 otherwise")
    func conditional() async throws {
        let fixture = try await MediaFixture()
        try await fixture.application().test(.router) { client in
            let uri = fixture.mediaURL(fixture.postA, "720p/index.m3u8")
            let first = try await client.execute(uri: uri, method: .get)
            let etag = try #require(first.headers[.eTag])
            for header in [etag, "W/\(etag)", "\"other\", \(etag)", "*"] {
                let response = try await client.execute(uri: uri, method: .get, headers: [.ifNoneMatch: header])
                #expect(response.status == .notModified, "\(header)")
                #expect(response.headers[.eTag] == etag)
                #expect(response.headers[.cacheControl] == "public, max-age=31536000, immutable")
                #expect(response.body.readableBytes == 0)
            }
            let other = try await client.execute(uri: uri, method: .get, headers: [.ifNoneMatch: "\"something-else\""])
            #expect(other.status == .ok)
            // A different file of the same post has a different validator.
            let segment = try await client.execute(uri: fixture.mediaURL(fixture.postA, "720p/seg_00000.m4s"), method: .get)
            #expect(segment.headers[.eTag] != etag)
        }
    }

    @Test("Images: permanent signature, hash and name must match, immutable")
    func images() async throws {
        let fixture = try await MediaFixture()
        let media = try #require(fixture.postA.media)
        let poster = try #require(media.poster), thumbnail = try #require(media.thumbnail)
        try await fixture.application().test(.router) { client in
            let response = try await client.execute(uri: fixture.imageURL(fixture.postA, poster), method: .get)
            #expect(response.status == .ok)
            #expect(Self.body(response) == MediaFixture.poster)
            #expect(response.headers[.contentType] == "image/jpeg")
            #expect(response.headers[.cacheControl] == "public, max-age=31536000, immutable")
            #expect(response.headers[.eTag] == "\"\(poster.contentHash)\"")
            // The URL the presenter builds is the one served.
            let presented = VideoPresenter(tokens: fixture.tokens, images: fixture.images).image(fixture.postA.id, thumbnail)
            #expect(try await client.execute(uri: presented.url, method: .get).status == .ok)
            #expect(try await client.execute(uri: presented.url, method: .head).headers[.contentLength] == String(MediaFixture.thumb.count))

            let signature = fixture.images.signature(postID: fixture.postA.id, contentHash: poster.contentHash)
            let cases: [(String, HTTPResponse.Status)] = [
                // Wrong signature, or one made for another post.
                ("/img/AAAAAAAAAAAAAAAA/\(fixture.postA.id)/\(poster.contentHash)/poster.jpg", .forbidden),
                ("/img/\(signature)/\(fixture.postB.id)/\(poster.contentHash)/poster.jpg", .forbidden),
                // Right signature, but the name does not belong to that hash.
                ("/img/\(signature)/\(fixture.postA.id)/\(poster.contentHash)/thumb.jpg", .notFound),
                ("/img/\(signature)/\(fixture.postA.id)/\(poster.contentHash)/download.mp4", .notFound),
                ("/img/\(signature)/\(fixture.postA.id)/\(poster.contentHash)/..", .notFound),
                ("/img/\(signature)/\(fixture.postA.id)/\(poster.contentHash)/%2e%2e", .notFound),
            ]
            for (uri, status) in cases {
                let response = try await client.execute(uri: uri, method: .get)
                #expect(response.status == status, "\(uri)")
                #expect(!MediaFixture.containsCanary(response.body))
            }
        }
    }

    @Test("A deleted post stops being served once the short cache expires")
    func deletion() async throws {
        let fixture = try await MediaFixture()
        try await fixture.application().test(.router) { client in
            let uri = fixture.mediaURL(fixture.postA, "720p/seg_00001.m4s")
            #expect(try await client.execute(uri: uri, method: .get).status == .ok)
            try await fixture.store.deletePost(id: fixture.postA.id)
            fixture.clock.advance(5)
            #expect(try await client.execute(uri: fixture.mediaURL(fixture.postA, "720p/seg_00001.m4s"), method: .get).status == .notFound)
            #expect(try await client.execute(uri: fixture.mediaURL(fixture.postA, "key"), method: .get).status == .notFound)
        }
    }

    @Test("Routes are registered with explicit access levels, GET and HEAD")
    func routeTable() async throws {
        let fixture = try await MediaFixture()
        let router = Router(context: AppRequestContext.self)
        let registry = RouteRegistry()
        MediaController(library: fixture.store, storage: fixture.storage, tokens: fixture.tokens, images: fixture.images, access: fixture.access, now: Date.init)
            .register(APIRoutes(router: router, registry: registry, tag: "media"))
        CompatMediaController(library: fixture.store, grants: fixture.store, storage: fixture.storage, keyScheme: "lockdown", now: Date.init)
            .register(APIRoutes(router: router, registry: registry, tag: "compat"))
        let table = Set(registry.routes.map { "\($0.method) \($0.path) \($0.access.rawValue)" })
        let expected: Set<String> = [
            "GET /media/{token}/{id}/{file+} mediaToken", "HEAD /media/{token}/{id}/{file+} mediaToken",
            "GET /img/{sig}/{id}/{hash}/{file} mediaToken", "HEAD /img/{sig}/{id}/{hash}/{file} mediaToken",
            "GET /videos/{folder}/index.m3u8 compat", "HEAD /videos/{folder}/index.m3u8 compat",
            "GET /videos/{folder}/{file+} compat", "HEAD /videos/{folder}/{file+} compat",
            "GET /api/videos/{folder}/key user", "HEAD /api/videos/{folder}/key user",
        ]
        #expect(table == expected)
    }

    /// Measures what the post cache saves, for the record (no assertion on timings).
    @Test("Post lookup cost with and without the cache")
    func lookupCost() async throws {
        let fixture = try await MediaFixture()
        let id = fixture.postA.id
        let rounds = 2000
        let clock = ContinuousClock()
        let uncached = try await clock.measure {
            for _ in 0..<rounds { _ = try await fixture.store.post(id: id) }
        }
        let cache = ReadyPostCache<Int64>()
        let now = Date()
        let cached = try await clock.measure {
            for _ in 0..<rounds { _ = try await cache.entry(for: id, now: now) { try await fixture.store.post(id: id) } }
        }
        print("post lookup: store \(uncached / rounds) per call, cache \(cached / rounds) per call")
        #expect(cached < uncached)
    }
}
