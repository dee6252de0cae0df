import Foundation
import ReelS3
import ReelStorage
import ReelTestSupport
import Testing
import ReelTestFiles

/// Kept sources in the bucket (SeaweedFS): kept once by content hash, fetched into a work folder
/// by ranges on any node, removed; malformed paths never become keys.
@Suite("S3SourceStorage against SeaweedFS")
struct S3SourceStorageTests {
    static func storage(_ bucket: SeaweedBucket) -> S3SourceStorage {
        var media = S3MediaStorage(
            client: bucket.client,
            location: S3Location(bucket: bucket.name, prefix: "lib/", endpoint: bucket.client.endpoint, region: SeaweedS3.region)
        )
        media.multipartThreshold = 6 << 20
        media.partSize = 5 << 20
        var storage = S3SourceStorage(media: media)
        storage.rangeBytes = 1 << 20
        return storage
    }

    static func folder() -> URL {
        TemporaryFolder.fresh("reel-s3-sources")
    }

    @Test("A source kept on one node is fetched whole on another; kept again, it is not uploaded again")
    func keepAndFetch() async throws {
        let bucket = try await SeaweedBucket.fresh()
        let (importing, transcoding) = (Self.storage(bucket), Self.storage(bucket))
        let local = Self.folder()
        try FileManager.default.createDirectory(at: local, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: local) }
        // Above the multipart threshold, and several fetch ranges long.
        let bytes = patterned(7 << 20 | 12_345, seed: 4)
        let file = local.appendingPathComponent("Clip.MOV")
        try bytes.write(to: file)

        let path = try await importing.keep(file, contentHash: "ab12cd")
        #expect(path == "sources/ab12cd.mov")
        let stored = try #require(try await bucket.client.headObject(bucket: bucket.name, key: "lib/sources/ab12cd.mov"))
        #expect(stored.size == bytes.count)
        #expect(try await importing.keep(file, contentHash: "ab12cd") == path)
        #expect(try await bucket.client.headObject(bucket: bucket.name, key: "lib/sources/ab12cd.mov")?.etag == stored.etag)

        let work = Self.folder()
        defer { try? FileManager.default.removeItem(at: work) }
        let copy = try #require(try await transcoding.localCopy(of: path, in: work))
        #expect(copy.deletingLastPathComponent().standardizedFileURL == work.standardizedFileURL)
        #expect(try Data(contentsOf: copy) == bytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: work.path) == ["ab12cd.mov"], "no partial file is left")

        let subtitles = try await importing.keepSubtitles(Data("WEBVTT\n\n00:00.000 --> 00:01.000\nhi\n".utf8), tag: "pt-BR")
        #expect(subtitles.hasPrefix("sources/") && subtitles.hasSuffix(".pt-BR.vtt"))
        let cues = try #require(try await transcoding.localCopy(of: subtitles, in: work))
        #expect(try String(contentsOf: cues, encoding: .utf8).hasPrefix("WEBVTT"))

        await transcoding.removeSource(path)
        #expect(try await importing.localCopy(of: path, in: work) == nil)
        await transcoding.removeSource(path)  // already gone: no error
    }

    @Test("Paths outside sources/ are refused before any request")
    func paths() async throws {
        let bucket = try await SeaweedBucket.fresh()
        let storage = Self.storage(bucket)
        for bad in ["sources/../media/1/master.m3u8", "media/1/x", "sources/.hidden", "sources/a/b", "sources/", "../sources/x"] {
            await #expect(throws: S3Error.self, "\(bad)") { _ = try await storage.localCopy(of: bad, in: Self.folder()) }
        }
    }
}
