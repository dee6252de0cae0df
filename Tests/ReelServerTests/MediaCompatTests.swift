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

/// Seed 000's routes, driven the way its iOS client drives them.
@Suite("Seed 000 media routes")
struct MediaCompatTests {
    static func text(_ response: TestResponse) -> String { String(buffer: response.body) }

    @Test("The master playlist at /videos/{folder}/index.m3u8, relative rendition URIs")
    func master() async throws {
        let fixture = try await MediaFixture()
        try await fixture.application().test(.router) { client in
            let response = try await client.execute(uri: "/videos/\(fixture.postA.folderName)/index.m3u8", method: .get)
            #expect(response.status == .ok)
            #expect(Self.text(response) == MediaFixture.masterA)
            #expect(response.headers[.contentType] == "application/vnd.apple.mpegurl")
            #expect(response.headers[.cacheControl] == "public, max-age=3600")
            #expect(response.headers[HTTPField.Name("X-Content-Type-Options")!] == "nosniff")
            #expect(Self.text(response).contains("\n720p/index.m3u8\n"))

            let head = try await client.execute(uri: "/videos/\(fixture.postA.folderName)/index.m3u8", method: .head)
            #expect(head.status == .ok)
            #expect(head.headers[.contentLength] == String(MediaFixture.masterA.utf8.count))
            #expect(head.body.readableBytes == 0)
        }
    }

    @Test("Media playlists point their key at <scheme>://<host>/api/videos/<folder>/key, privately cached")
    func keyRewrite() async throws {
        let fixture = try await MediaFixture()
        let folder = fixture.postA.folderName
        try await fixture.application().test(.router) { client in
            let uri = "/videos/\(folder)/720p/index.m3u8"
            let response = try await client.execute(uri: uri, method: .get, headers: .media([("Host", "reels.example.com:8443")]))
            #expect(response.status == .ok)
            let expected = MediaFixture.mediaA.replacingOccurrences(
                of: "URI=\"../key\"", with: "URI=\"lockdown://reels.example.com:8443/api/videos/\(folder)/key\"")
            #expect(Self.text(response) == expected)
            #expect(response.headers[.cacheControl] == "private, max-age=3600")
            #expect(response.headers[.contentLength] == String(expected.utf8.count))

            // Another host, another body and another validator.
            let other = try await client.execute(uri: uri, method: .get, headers: .media([("Host", "10.0.0.2:8080")]))
            #expect(Self.text(other).contains("URI=\"lockdown://10.0.0.2:8080/api/videos/\(folder)/key\""))
            #expect(other.headers[.eTag] != response.headers[.eTag])
            let etag = try #require(response.headers[.eTag])
            let revalidated = try await client.execute(uri: uri, method: .get, headers: .media([("Host", "reels.example.com:8443"), ("If-None-Match", etag)]))
            #expect(revalidated.status == .notModified)

            // Without a Host header (the router test's authority is used).
            let plain = try await client.execute(uri: uri, method: .get)
            #expect(Self.text(plain).contains("URI=\"lockdown://localhost/api/videos/\(folder)/key\""))

            // A Host that would inject lines into the playlist is refused.
            let hostile = try await client.execute(uri: uri, method: .get, headers: .media([("Host", "evil.com\"#EXT-X-ENDLIST")]))
            #expect(hostile.status == .badRequest)
        }
    }

    @Test("Segments and init sections are served, publicly cached; downloads and images are not")
    func files() async throws {
        let fixture = try await MediaFixture()
        let folder = fixture.postA.folderName
        try await fixture.application().test(.router) { client in
            let segment = try await client.execute(uri: "/videos/\(folder)/720p/seg_00000.m4s", method: .get)
            #expect(segment.status == .ok)
            #expect(Data(segment.body.readableBytesView) == MediaFixture.segment0)
            #expect(segment.headers[.contentType] == "video/iso.segment")
            #expect(segment.headers[.cacheControl] == "public, max-age=3600")

            let ranged = try await client.execute(uri: "/videos/\(folder)/720p/seg_00000.m4s", method: .get, headers: [.range: "bytes=0-99"])
            #expect(ranged.status == .partialContent)
            #expect(Data(ranged.body.readableBytesView) == MediaFixture.segment0.prefix(100))

            let initSection = try await client.execute(uri: "/videos/\(folder)/720p/init.mp4", method: .get)
            #expect(initSection.status == .ok)
            #expect(initSection.headers[.contentType] == "video/mp4")

            // Unauthenticated routes never hand out the clear download, the images or the key.
            for file in ["download.mp4", "poster.jpg", "thumb.jpg", "key", "master.m3u8/../key"] {
                let response = try await client.execute(uri: "/videos/\(folder)/\(file)", method: .get)
                #expect(response.status == .notFound, "\(file)")
            }
        }
    }

    @Test("The key needs credentials and is never cached")
    func key() async throws {
        let fixture = try await MediaFixture()
        let folder = fixture.postA.folderName
        try await fixture.application().test(.router) { client in
            let anonymous = try await client.execute(uri: "/api/videos/\(folder)/key", method: .get)
            #expect(anonymous.status == .unauthorized)
            #expect(Data(anonymous.body.readableBytesView).range(of: fixture.key) == nil)

            let wrong = try await client.execute(uri: "/api/videos/\(folder)/key", method: .get, headers: .media([("api-key", "nope")]))
            #expect(wrong.status == .unauthorized)

            let signedIn = try await client.execute(
                uri: "/api/videos/\(folder)/key", method: .get, headers: .media([("api-key", MediaTestAuthMiddleware.goodKey)]))
            #expect(signedIn.status == .ok)
            #expect(Data(signedIn.body.readableBytesView) == fixture.key)
            #expect(signedIn.headers[.contentType] == "application/octet-stream")
            #expect(signedIn.headers[.cacheControl] == "private, no-store")

            let unencrypted = try await client.execute(
                uri: "/api/videos/\(fixture.postB.folderName)/key", method: .get, headers: .media([("api-key", MediaTestAuthMiddleware.goodKey)]))
            #expect(unencrypted.status == .notFound)
        }
    }

    @Test("Seed 000's client end to end: master, rendition, segment, and the key through its resource loader")
    func clientFlow() async throws {
        let fixture = try await MediaFixture()
        try await fixture.application().test(.router) { client in
            // Video.streamURL(base:) = base + "videos/\(folderName)/index.m3u8"
            let base = try #require(URL(string: "https://reels.example.com:8443/"))
            let masterURL = base.appendingPathComponent("videos/\(fixture.postA.folderName)/index.m3u8")
            let master = try await client.execute(uri: masterURL.path, method: .get, headers: .media([("Host", "reels.example.com:8443")]))
            #expect(master.status == .ok)
            // AVPlayer resolves each variant URI against the master's URL.
            let variants = Self.text(master).split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }
            #expect(variants.count == 1)
            for variant in variants {
                let mediaURL = try #require(URL(string: String(variant), relativeTo: masterURL)?.absoluteURL)
                let media = try await client.execute(uri: mediaURL.path, method: .get, headers: .media([("Host", "reels.example.com:8443")]))
                #expect(media.status == .ok)
                let playlist = Self.text(media)
                let lines = playlist.split(separator: "\n")
                for segment in lines where !segment.hasPrefix("#") {
                    let segmentURL = try #require(URL(string: String(segment), relativeTo: mediaURL)?.absoluteURL)
                    #expect(try await client.execute(uri: segmentURL.path, method: .get).status == .ok, "\(segmentURL)")
                }
                let mapLine = try #require(lines.first { $0.hasPrefix("#EXT-X-MAP:") })
                let mapURI = try #require(mapLine.split(separator: "\"").dropFirst().first)
                let mapURL = try #require(URL(string: String(mapURI), relativeTo: mediaURL)?.absoluteURL)
                #expect(try await client.execute(uri: mapURL.path, method: .get).status == .ok)

                // LockdownResourceLoaderDelegate: only the lockdown scheme is intercepted; it takes
                // scheme, host and port from the base URL, keeps the path and adds `api-key`.
                let keyLine = try #require(lines.first { $0.hasPrefix("#EXT-X-KEY:") })
                let keyURIText = try #require(keyLine.components(separatedBy: "URI=\"").last?.split(separator: "\"").first)
                let keyURL = try #require(URL(string: String(keyURIText)))
                #expect(keyURL.scheme == "lockdown")
                var components = try #require(URLComponents(url: keyURL, resolvingAgainstBaseURL: false))
                components.scheme = base.scheme
                components.host = base.host
                components.port = base.port
                let finalURL = try #require(components.url)
                let key = try await client.execute(
                    uri: finalURL.path, method: .get, headers: .media([("api-key", MediaTestAuthMiddleware.goodKey)]))
                #expect(key.status == .ok)
                #expect(Data(key.body.readableBytesView) == fixture.key)
            }
        }
    }

    @Test("Folder names are slugs, checked before any lookup")
    func folderValidation() async throws {
        let fixture = try await MediaFixture()
        try await fixture.application().test(.router) { client in
            for folder in ["CLIP-A", "clip_a", "clip.a", String(repeating: "a", count: 65), "%63lip-a", "clip-a%00", "clip-pending", "nope"] {
                let response = try await client.execute(uri: "/videos/\(folder)/index.m3u8", method: .get)
                #expect(response.status == .notFound, "\(folder)")
            }
        }
    }

    @Test("Over a real socket: HEAD length, ranges and raw escapes survive the HTTP parser")
    func live() async throws {
        let fixture = try await MediaFixture()
        let app = fixture.application(configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            let folder = fixture.postA.folderName
            let head = try await client.execute(uri: "/videos/\(folder)/720p/seg_00000.m4s", method: .head)
            #expect(head.status == .ok)
            #expect(head.headers[.contentLength] == "1000")
            #expect(head.body.readableBytes == 0)

            let ranged = try await client.execute(uri: fixture.mediaURL(fixture.postA, "download.mp4"), method: .get, headers: [.range: "bytes=-100"])
            #expect(ranged.status == .partialContent)
            #expect(Data(ranged.body.readableBytesView) == MediaFixture.download.suffix(100))

            let whole = try await client.execute(uri: fixture.mediaURL(fixture.postA, "download.mp4"), method: .get)
            #expect(Data(whole.body.readableBytesView) == MediaFixture.download)

            let media = try await client.execute(uri: "/videos/\(folder)/720p/index.m3u8", method: .get)
            #expect(String(buffer: media.body).contains("URI=\"lockdown://"))

            for hostile in ["%2e%2e/%2e%2e/reelhouse.sqlite", "..%2f..%2freelhouse.sqlite", "720p/..%2f..%2f..%2freelhouse.sqlite", "%252e%252e/secret"] {
                for uri in [fixture.mediaURL(fixture.postA, hostile), "/videos/\(folder)/\(hostile)"] {
                    let response = try await client.execute(uri: uri, method: .get)
                    #expect((400..<500).contains(response.status.code), "\(uri)")
                    #expect(!MediaFixture.containsCanary(response.body), "\(uri)")
                }
            }
        }
    }
}
