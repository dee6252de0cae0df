import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import ReelModels
import ReelPipeline
import ReelS3
import ReelStorage
import ReelTestSupport
import Testing

@testable import ReelServer

/// The media routes when the storage has no local files (`localFile` is nil): the same posts
/// published to S3MediaStorage on a real SeaweedFS, and every answer compared with the local
/// folder's — status, body and headers (the ETag is the storage's own, so it is checked apart).
@Suite("Media served from object storage")
struct MediaFromObjectStorageTests {
    static func body(_ response: TestResponse) -> Data { Data(response.body.readableBytesView) }
    static func json(_ response: TestResponse) throws -> NSDictionary? {
        try JSONSerialization.jsonObject(with: body(response)) as? NSDictionary
    }

    /// The fixture's posts A and B published to a fresh bucket, from copies of their folders.
    static func bucketStorage(_ fixture: MediaFixture) async throws -> S3MediaStorage {
        let server = try await SeaweedS3.shared()
        let client = S3Client(
            endpoint: try S3Endpoint(server.endpoint), region: SeaweedS3.region,
            credentials: S3Credentials(accessKeyID: SeaweedS3.accessKey, secretAccessKey: SeaweedS3.secretKey)
        )
        let bucket = "media-" + UUID().uuidString.lowercased().prefix(18)
        // The first request after weed starts may come before its volume server is registered.
        let deadline = Date().addingTimeInterval(30)
        while true {
            do {
                try await client.createBucket(bucket)
                try await client.putObject(bucket: bucket, key: "probe", body: Data("p".utf8))
                break
            } catch {
                if Date() > deadline { throw error }
                try await Task.sleep(for: .milliseconds(250))
            }
        }
        let storage = S3MediaStorage(
            client: client, location: S3Location(bucket: bucket, prefix: "lib/", endpoint: client.endpoint, region: SeaweedS3.region)
        )
        for post in [fixture.postA!, fixture.postB!] {
            let staged = fixture.root.appendingPathComponent("staged-\(post.id)", isDirectory: true)
            try FileManager.default.copyItem(at: fixture.data.mediaRoot.appendingPathComponent(String(post.id)), to: staged)
            try await storage.publish(stagedDirectory: staged, postKey: String(post.id))
        }
        return storage
    }

    @Test("Every media answer from the bucket equals the local folder's: GET, HEAD, ranges, 416, images, compat playlists")
    func sameAnswers() async throws {
        let fixture = try await MediaFixture()
        let storage = try await Self.bucketStorage(fixture)
        let a = fixture.postA!, b = fixture.postB!
        let requests: [(String, HTTPRequest.Method, [(String, String)])] = [
            (fixture.mediaURL(a, "master.m3u8"), .get, []),
            (fixture.mediaURL(a, "master.m3u8"), .head, []),
            (fixture.mediaURL(a, "720p/index.m3u8"), .get, []),
            (fixture.mediaURL(a, "720p/seg_00000.m4s"), .get, []),
            (fixture.mediaURL(a, "720p/seg_00000.m4s"), .get, [("Range", "bytes=0-99")]),
            (fixture.mediaURL(a, "720p/seg_00000.m4s"), .get, [("Range", "bytes=-100")]),
            (fixture.mediaURL(a, "720p/seg_00000.m4s"), .get, [("Range", "bytes=950-")]),
            (fixture.mediaURL(a, "720p/seg_00000.m4s"), .get, [("Range", "bytes=990-5000")]),
            (fixture.mediaURL(a, "720p/seg_00000.m4s"), .get, [("Range", "bytes=1000-")]),
            (fixture.mediaURL(a, "720p/seg_00000.m4s"), .get, [("Range", "bytes=0-9,20-29")]),
            (fixture.mediaURL(a, "720p/seg_00000.m4s"), .head, [("Range", "bytes=0-99")]),
            (fixture.mediaURL(a, "720p/init.mp4"), .get, []),
            (fixture.mediaURL(a, "download.mp4"), .get, []),
            (fixture.mediaURL(a, "download.mp4"), .get, [("Range", "bytes=1000000-1999999")]),
            (fixture.mediaURL(a, "key"), .get, []),
            (fixture.mediaURL(a, "720p/missing.m4s"), .get, []),
            (fixture.mediaURL(b, "240p/seg_00001.m4s"), .get, []),
            (fixture.imageURL(a, a.media!.poster!), .get, []),
            (fixture.imageURL(a, a.media!.thumbnail!), .head, []),
            ("/videos/\(a.folderName)/index.m3u8", .get, []),
            ("/videos/\(a.folderName)/720p/index.m3u8", .get, [("Host", "reels.example.com:8443")]),
            ("/videos/\(a.folderName)/720p/seg_00001.m4s", .get, []),
            ("/videos/\(b.folderName)/240p/index.m3u8", .get, []),
        ]
        try await fixture.application().test(.router) { local in
            try await fixture.application(storage: storage).test(.router) { remote in
                for (uri, method, headers) in requests {
                    let expected = try await local.execute(uri: uri, method: method, headers: .media(headers))
                    let actual = try await remote.execute(uri: uri, method: method, headers: .media(headers))
                    let label = "\(method) \(uri) \(headers)"
                    #expect(actual.status == expected.status, "\(label)")
                    if expected.headers[.contentType]?.hasPrefix("application/json") == true {
                        // An error body: the same JSON (its key order is the encoder's business).
                        #expect(try Self.json(actual) == Self.json(expected), "\(label)")
                    } else {
                        #expect(Self.body(actual) == Self.body(expected), "\(label)")
                    }
                    for name in [HTTPField.Name.contentType, .cacheControl, .acceptRanges, .contentRange, HTTPField.Name("X-Content-Type-Options")!] {
                        #expect(actual.headers[name] == expected.headers[name], "\(label): \(name)")
                    }
                    if let length = actual.headers[.contentLength] {
                        #expect(Int(length) == (method == .head ? Int(expected.headers[.contentLength] ?? "") : Self.body(expected).count), "\(label)")
                    }
                    #expect((actual.headers[.eTag] == nil) == (expected.headers[.eTag] == nil), "\(label)")
                }
            }
        }
    }

    @Test("ETag from the bucket: stable, 304 on If-None-Match, If-Range honoured; an image keeps its content hash")
    func validators() async throws {
        let fixture = try await MediaFixture()
        let storage = try await Self.bucketStorage(fixture)
        try await fixture.application(storage: storage).test(.router) { client in
            let uri = fixture.mediaURL(fixture.postA, "720p/seg_00000.m4s")
            let first = try await client.execute(uri: uri, method: .get)
            let etag = try #require(first.headers[.eTag])
            #expect(etag.hasPrefix("\"") && !etag.hasPrefix("W/"))
            let again = try await client.execute(uri: uri, method: .head)
            #expect(again.headers[.eTag] == etag)

            let revalidated = try await client.execute(uri: uri, method: .get, headers: [.ifNoneMatch: etag])
            #expect(revalidated.status == .notModified)
            #expect(revalidated.body.readableBytes == 0)
            #expect(revalidated.headers[.cacheControl] == "public, max-age=31536000, immutable")

            let ranged = try await client.execute(uri: uri, method: .get, headers: .media([("Range", "bytes=0-9"), ("If-Range", etag)]))
            #expect(ranged.status == .partialContent)
            #expect(Self.body(ranged) == MediaFixture.segment0.prefix(10))
            let stale = try await client.execute(uri: uri, method: .get, headers: .media([("Range", "bytes=0-9"), ("If-Range", "\"stale\"")]))
            #expect(stale.status == .ok)
            #expect(Self.body(stale) == MediaFixture.segment0)

            let other = try await client.execute(uri: fixture.mediaURL(fixture.postA, "720p/seg_00001.m4s"), method: .get)
            #expect(other.headers[.eTag] != etag)

            let poster = fixture.postA.media!.poster!
            let image = try await client.execute(uri: fixture.imageURL(fixture.postA, poster), method: .get)
            #expect(image.headers[.eTag] == "\"\(poster.contentHash)\"")
        }
    }

    @Test("A post removed from the bucket is 404, even while its row still says ready")
    func removed() async throws {
        let fixture = try await MediaFixture()
        let storage = try await Self.bucketStorage(fixture)
        try await fixture.application(storage: storage).test(.router) { client in
            let uri = fixture.mediaURL(fixture.postA, "720p/seg_00000.m4s")
            #expect(try await client.execute(uri: uri, method: .get).status == .ok)
            try await storage.remove(postKey: String(fixture.postA.id))
            #expect(try await client.execute(uri: uri, method: .get).status == .notFound)
            #expect(try await client.execute(uri: "/videos/\(fixture.postA.folderName)/index.m3u8", method: .get).status == .notFound)
            // The other post is untouched.
            #expect(try await client.execute(uri: fixture.mediaURL(fixture.postB, "240p/seg_00000.m4s"), method: .get).status == .ok)
        }
    }
}
