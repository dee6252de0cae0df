import Foundation
import ReelS3
import ReelStorage
import ReelTestSupport
import Testing
import ReelTestFiles

/// S3MediaStorage on a real SeaweedFS: publish through staging with `.published` last, read
/// side, removal, multipart above the threshold and its abort on failure.
@Suite("S3MediaStorage against SeaweedFS")
struct S3MediaStorageTests {
    static let files: [String: Data] = [
        "master.m3u8": Data("#EXTM3U\n720p/index.m3u8\n".utf8),
        "720p/index.m3u8": Data("#EXTM3U\n#EXT-X-MAP:URI=\"init.mp4\"\nseg_00000.m4s\n".utf8),
        "720p/init.mp4": Data("ftyp-init".utf8),
        "720p/seg_00000.m4s": patterned(300_000, seed: 9),
        "poster.jpg": Data([0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3]),
    ]

    static func stage(_ files: [String: Data]) throws -> URL {
        let folder = TemporaryFolder.fresh("reel-s3-stage")
        for (path, data) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
        }
        return folder
    }

    static func storage(_ bucket: SeaweedBucket, prefix: String = "lib/") -> S3MediaStorage {
        S3MediaStorage(
            client: bucket.client,
            location: S3Location(bucket: bucket.name, prefix: prefix, endpoint: bucket.client.endpoint, region: SeaweedS3.region)
        )
    }

    @Test("Publish makes every file readable (whole, ranged, info); staging is cleaned up")
    func publish() async throws {
        let bucket = try await SeaweedBucket.fresh()
        let storage = Self.storage(bucket)
        let staged = try Self.stage(Self.files)
        try await storage.publish(stagedDirectory: staged, postKey: "41")

        for (path, data) in Self.files {
            let object = try #require(try await storage.object(postKey: "41", relativePath: path, range: nil), "\(path)")
            #expect(object.bytes == data, "\(path)")
            #expect(object.size == data.count)
            let info = try #require(try await storage.objectInfo(postKey: "41", relativePath: path))
            #expect(info == object.info)
        }
        let segment = try #require(Self.files["720p/seg_00000.m4s"])
        let part = try #require(try await storage.object(postKey: "41", relativePath: "720p/seg_00000.m4s", range: 100...199))
        #expect(part.bytes == segment[100...199])
        #expect(part.size == segment.count)
        // A range past the end gets the bytes up to the end (a first chunk asked for before the
        // size is known), with the whole object's ETag; one starting past the end gets nothing.
        let tail = try #require(try await storage.object(postKey: "41", relativePath: "720p/seg_00000.m4s", range: 100...(segment.count + 5000)))
        #expect(tail.bytes == segment[100...])
        #expect(tail.range == 100...(segment.count - 1))
        #expect(tail.etag == part.etag)
        #expect(try await storage.object(postKey: "41", relativePath: "720p/seg_00000.m4s", range: segment.count...(segment.count + 10)) == nil)

        #expect(try await storage.postKeys() == ["41"])
        #expect(try await storage.object(postKey: "41", relativePath: "missing.m4s", range: nil) == nil)
        #expect(try await storage.object(postKey: "42", relativePath: "master.m3u8", range: nil) == nil)
        // Staging objects are gone, the marker lists the files, and the staged folder was consumed.
        #expect(try await bucket.client.listAll(bucket: bucket.name, prefix: "lib/staging/").isEmpty)
        let marker = try #require(try await bucket.client.getObject(bucket: bucket.name, key: "lib/media/41/.published"))
        #expect(String(decoding: marker.bytes, as: UTF8.self).split(separator: "\n").map(String.init) == Self.files.keys.sorted())
        #expect(!FileManager.default.fileExists(atPath: staged.path))
        // The marker itself and paths out of the post are never objects a reader gets.
        #expect(try await storage.object(postKey: "41", relativePath: ".published", range: nil) == nil)
        #expect(try await storage.object(postKey: "41", relativePath: "../41/master.m3u8", range: nil) == nil)
        #expect(storage.localFile(postKey: "41", relativePath: "master.m3u8") == nil)
    }

    @Test("A post without .published is absent to readers, and a new publish replaces its leftovers")
    func halfPublished() async throws {
        let bucket = try await SeaweedBucket.fresh()
        let storage = Self.storage(bucket)
        // What a publisher killed between the copies and the marker leaves: every file, no marker.
        for (path, data) in Self.files {
            try await bucket.client.putObject(bucket: bucket.name, key: "lib/media/77/\(path)", body: data)
        }
        try await bucket.client.putObject(bucket: bucket.name, key: "lib/media/77/stale-from-before.m4s", body: Data("old".utf8))
        for path in Self.files.keys {
            #expect(try await storage.object(postKey: "77", relativePath: path, range: nil) == nil, "\(path)")
            #expect(try await storage.objectInfo(postKey: "77", relativePath: path) == nil, "\(path)")
        }
        // The sweeper still sees it, so it can be cleaned up.
        #expect(try await storage.postKeys() == ["77"])

        try await storage.publish(stagedDirectory: try Self.stage(Self.files), postKey: "77")
        #expect(try await storage.object(postKey: "77", relativePath: "720p/init.mp4", range: nil)?.bytes == Self.files["720p/init.mp4"])
        #expect(try await bucket.client.headObject(bucket: bucket.name, key: "lib/media/77/stale-from-before.m4s") == nil)
    }

    @Test("Remove takes the marker first, then every object")
    func remove() async throws {
        let bucket = try await SeaweedBucket.fresh()
        let storage = Self.storage(bucket)
        try await storage.publish(stagedDirectory: try Self.stage(Self.files), postKey: "5")
        try await storage.publish(stagedDirectory: try Self.stage(["master.m3u8": Data("other".utf8)]), postKey: "6")
        #expect(try await storage.object(postKey: "5", relativePath: "master.m3u8", range: nil) != nil)
        try await storage.remove(postKey: "5")
        #expect(try await storage.object(postKey: "5", relativePath: "master.m3u8", range: nil) == nil)
        #expect(try await bucket.client.listAll(bucket: bucket.name, prefix: "lib/media/5/").isEmpty)
        // SeaweedFS still lists the emptied folder as a common prefix; postKeys must not.
        let prefixes = try await bucket.client.listObjects(bucket: bucket.name, prefix: "lib/media/", delimiter: "/").commonPrefixes
        #expect(prefixes.contains("lib/media/6/"))
        #expect(try await storage.postKeys() == ["6"])
        // Removing what is not there is fine; a post key that is not a post id is refused.
        try await storage.remove(postKey: "5")
        await #expect(throws: S3Error.self) { try await storage.remove(postKey: "../6") }
    }

    @Test("A file above the threshold goes up in parts and reads back whole")
    func multipartPublish() async throws {
        let bucket = try await SeaweedBucket.fresh()
        var storage = Self.storage(bucket, prefix: "")
        storage.multipartThreshold = 6 << 20
        storage.partSize = 5 << 20
        let big = patterned((12 << 20) + 345, seed: 3)
        try await storage.publish(stagedDirectory: try Self.stage(["download.mp4": big, "master.m3u8": Data("m".utf8)]), postKey: "9")
        let object = try #require(try await storage.object(postKey: "9", relativePath: "download.mp4", range: nil))
        #expect(object.bytes == big)
        // A multipart ETag is "<md5 of part md5s>-<parts>": three parts here.
        #expect(object.etag.hasSuffix("-3\""))
        #expect(try await bucket.client.listMultipartUploads(bucket: bucket.name).isEmpty)
    }

    @Test("A failed multipart upload is aborted and nothing is published")
    func failedMultipartIsAborted() async throws {
        let bucket = try await SeaweedBucket.fresh()
        var storage = Self.storage(bucket)
        // 1 MiB parts are below S3's 5 MiB minimum: completing the upload fails (EntityTooSmall).
        storage.multipartThreshold = 1 << 20
        storage.partSize = 1 << 20
        let staged = try Self.stage(["download.mp4": patterned(3 << 20), "master.m3u8": Data("m".utf8)])
        await #expect {
            try await storage.publish(stagedDirectory: staged, postKey: "13")
        } throws: { error in
            (error as? S3Error)?.code == "EntityTooSmall"
        }
        #expect(try await bucket.client.listMultipartUploads(bucket: bucket.name).isEmpty)
        #expect(try await bucket.client.listAll(bucket: bucket.name, prefix: "lib/").isEmpty)
        #expect(try await storage.object(postKey: "13", relativePath: "master.m3u8", range: nil) == nil)
        // The staged folder stays for a retry.
        #expect(FileManager.default.fileExists(atPath: staged.appendingPathComponent("download.mp4").path))
    }

    @Test("The sweep aborts old multipart uploads and deletes old staging objects, and keeps fresh ones")
    func sweep() async throws {
        let bucket = try await SeaweedBucket.fresh()
        let storage = Self.storage(bucket)
        let upload = try await bucket.client.createMultipartUpload(bucket: bucket.name, key: "lib/staging/3/abc/download.mp4")
        try await bucket.client.putObject(bucket: bucket.name, key: "lib/staging/3/abc/master.m3u8", body: Data("x".utf8))
        try await storage.publish(stagedDirectory: try Self.stage(["master.m3u8": Data("m".utf8)]), postKey: "4")

        let none = try await storage.sweep(olderThan: Date().addingTimeInterval(-86_400))
        #expect(none.aborted == 0 && none.deleted == 0)
        #expect(try await bucket.client.listMultipartUploads(bucket: bucket.name).map(\.uploadID) == [upload])

        let swept = try await storage.sweep(olderThan: Date().addingTimeInterval(60))
        #expect(swept.aborted == 1 && swept.deleted == 1)
        #expect(try await bucket.client.listMultipartUploads(bucket: bucket.name).isEmpty)
        #expect(try await bucket.client.listAll(bucket: bucket.name, prefix: "lib/staging/").isEmpty)
        // Published media is not staging.
        #expect(try await storage.object(postKey: "4", relativePath: "master.m3u8", range: nil)?.bytes == Data("m".utf8))
    }
}

/// `migrate-store --media-to`: local post folders and sources copied in, and skipped when the
/// bucket already has the same bytes (by size and ETag), so a second run copies nothing.
@Suite("S3MediaStorage copy-in (migrate-store --media-to) against SeaweedFS")
struct S3MediaStorageCopyInTests {
    @Test("A local folder is copied once and kept; a changed file copies it again")
    func copyOnce() async throws {
        let bucket = try await SeaweedBucket.fresh()
        var storage = S3MediaStorageTests.storage(bucket)
        storage.multipartThreshold = 6 << 20
        storage.partSize = 5 << 20
        var files = S3MediaStorageTests.files
        files["download.mp4"] = patterned((11 << 20) + 7, seed: 5)  // multipart: its ETag is "…-3"
        let folder = try S3MediaStorageTests.stage(files)

        #expect(try await storage.copyIn(postFolder: folder, postKey: "21") == .copied)
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("download.mp4").path), "the local folder stays")
        for (path, data) in files {
            #expect(try await storage.object(postKey: "21", relativePath: path, range: nil)?.bytes == data, "\(path)")
        }
        #expect(try await storage.copyIn(postFolder: folder, postKey: "21") == .skipped)

        // Same size, other bytes: copied again.
        var changed = try #require(files["720p/init.mp4"])
        changed[0] ^= 0xFF
        try changed.write(to: folder.appendingPathComponent("720p/init.mp4"))
        #expect(try await storage.copyIn(postFolder: folder, postKey: "21") == .copied)
        #expect(try await storage.object(postKey: "21", relativePath: "720p/init.mp4", range: nil)?.bytes == changed)
        // A file more on disk than in the bucket: copied again.
        try Data("new".utf8).write(to: folder.appendingPathComponent("extra.vtt"))
        #expect(try await storage.copyIn(postFolder: folder, postKey: "21") == .copied)
        #expect(try await storage.copyIn(postFolder: folder, postKey: "21") == .skipped)
    }

    @Test("Objects without .published (an interrupted copy) are copied again")
    func interrupted() async throws {
        let bucket = try await SeaweedBucket.fresh()
        let storage = S3MediaStorageTests.storage(bucket)
        let folder = try S3MediaStorageTests.stage(S3MediaStorageTests.files)
        for (path, data) in S3MediaStorageTests.files {
            try await bucket.client.putObject(bucket: bucket.name, key: "lib/media/8/\(path)", body: data)
        }
        #expect(try await storage.copyIn(postFolder: folder, postKey: "8") == .copied)
        #expect(try await storage.object(postKey: "8", relativePath: "master.m3u8", range: nil) != nil)
    }

    @Test("Sources are copied under sources/ once")
    func sources() async throws {
        let bucket = try await SeaweedBucket.fresh()
        let storage = S3MediaStorageTests.storage(bucket)
        let folder = try S3MediaStorageTests.stage(["sources/abc.mp4": patterned(70_000)])
        let file = folder.appendingPathComponent("sources/abc.mp4")
        #expect(try await storage.copyIn(source: file) == .copied)
        #expect(try await bucket.client.getObject(bucket: bucket.name, key: "lib/sources/abc.mp4")?.bytes == patterned(70_000))
        #expect(try await storage.copyIn(source: file) == .skipped)
    }
}
