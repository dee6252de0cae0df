import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import ReelS3
import ReelTestSupport
import Testing

/// S3Client against a real SeaweedFS, which checks every signature.
@Suite("S3Client against SeaweedFS")
struct S3ClientSeaweedTests {
    @Test("Put, get whole and ranged, head, delete")
    func objectRoundTrip() async throws {
        let bucket = try await SeaweedBucket.fresh()
        let body = patterned(100_000)
        let key = "media/7/720p/seg_00000.m4s"
        let etag = try await bucket.client.putObject(bucket: bucket.name, key: key, body: body, contentType: "video/iso.segment")
        #expect(!etag.isEmpty)

        let whole = try #require(try await bucket.client.getObject(bucket: bucket.name, key: key))
        #expect(whole.bytes == body)
        #expect(whole.size == body.count)
        #expect(whole.range == nil)

        let ranged = try #require(try await bucket.client.getObject(bucket: bucket.name, key: key, range: 1000...1999))
        #expect(ranged.bytes == body[1000...1999])
        #expect(ranged.size == body.count)
        #expect(ranged.range == 1000...1999)

        let info = try #require(try await bucket.client.headObject(bucket: bucket.name, key: key))
        #expect(info.size == body.count)
        #expect(info.etag == whole.etag)
        #expect(info.contentType == "video/iso.segment")

        try await bucket.client.deleteObject(bucket: bucket.name, key: key)
        #expect(try await bucket.client.getObject(bucket: bucket.name, key: key) == nil)
        #expect(try await bucket.client.headObject(bucket: bucket.name, key: key) == nil)
        // Deleting again is not an error.
        try await bucket.client.deleteObject(bucket: bucket.name, key: key)
    }

    @Test("Keys with spaces, unicode and reserved characters are signed and stored as written")
    func awkwardKeys() async throws {
        let bucket = try await SeaweedBucket.fresh()
        let keys = ["a b/c+d.txt", "café/(1)*!'=&@:,;$.bin", "x/~tilde_-.ok"]
        for (index, key) in keys.enumerated() {
            try await bucket.client.putObject(bucket: bucket.name, key: key, body: Data("body \(index)".utf8))
            let object = try #require(try await bucket.client.getObject(bucket: bucket.name, key: key), "\(key)")
            #expect(object.bytes == Data("body \(index)".utf8))
        }
        let listed = try await bucket.client.listAll(bucket: bucket.name, prefix: "").map(\.key).sorted()
        #expect(listed == keys.sorted())
    }

    @Test("A wrong secret is refused with SignatureDoesNotMatch")
    func wrongSecret() async throws {
        let bucket = try await SeaweedBucket.fresh()
        try await bucket.client.putObject(bucket: bucket.name, key: "k", body: Data("v".utf8))
        let wrong = try bucket.client(secret: SeaweedS3.secretKey + "x")
        await #expect {
            try await wrong.getObject(bucket: bucket.name, key: "k")
        } throws: { error in
            (error as? S3Error)?.code == "SignatureDoesNotMatch"
        }
        await #expect {
            try await wrong.putObject(bucket: bucket.name, key: "k2", body: Data("v".utf8))
        } throws: { error in
            (error as? S3Error)?.code == "SignatureDoesNotMatch"
        }
        #expect(try await bucket.client.headObject(bucket: bucket.name, key: "k2") == nil)
    }

    @Test("ListObjectsV2 pages with continuation tokens, and groups by delimiter")
    func listing() async throws {
        let bucket = try await SeaweedBucket.fresh()
        let keys = (0..<7).map { "media/\($0 % 3)/file-\($0).m4s" }
        for key in keys { try await bucket.client.putObject(bucket: bucket.name, key: key, body: Data(key.utf8)) }
        var seen: [String] = []
        var token: String? = nil
        var pages = 0
        repeat {
            let page = try await bucket.client.listObjects(bucket: bucket.name, prefix: "media/", continuationToken: token, maxKeys: 3)
            #expect(page.objects.count <= 3)
            seen += page.objects.map(\.key)
            token = page.nextContinuationToken
            pages += 1
        } while token != nil && pages < 10
        #expect(pages == 3)
        #expect(seen.sorted() == keys.sorted())
        let grouped = try await bucket.client.listObjects(bucket: bucket.name, prefix: "media/", delimiter: "/")
        #expect(grouped.commonPrefixes.sorted() == ["media/0/", "media/1/", "media/2/"])
        #expect(grouped.objects.isEmpty)
    }

    @Test("DeleteObjects removes many keys at once; CopyObject copies on the server")
    func deleteManyAndCopy() async throws {
        let bucket = try await SeaweedBucket.fresh()
        for index in 0..<5 { try await bucket.client.putObject(bucket: bucket.name, key: "d/\(index)", body: Data([UInt8(index)])) }
        try await bucket.client.copyObject(bucket: bucket.name, sourceKey: "d/3", key: "copied/three")
        #expect(try await bucket.client.getObject(bucket: bucket.name, key: "copied/three")?.bytes == Data([3]))
        let failed = try await bucket.client.deleteObjects(bucket: bucket.name, keys: (0..<5).map { "d/\($0)" })
        #expect(failed.isEmpty)
        #expect(try await bucket.client.listAll(bucket: bucket.name, prefix: "d/").isEmpty)
        await #expect(throws: S3Error.self) {
            try await bucket.client.copyObject(bucket: bucket.name, sourceKey: "d/missing", key: "copied/none")
        }
    }

    @Test("Multipart: create, upload parts, complete; the object is the parts in order")
    func multipart() async throws {
        let bucket = try await SeaweedBucket.fresh()
        let part1 = patterned(5 << 20, seed: 1)
        let part2 = patterned(1234, seed: 2)
        let id = try await bucket.client.createMultipartUpload(bucket: bucket.name, key: "big.mp4", contentType: "video/mp4")
        let listed = try await bucket.client.listMultipartUploads(bucket: bucket.name)
        #expect(listed.contains { $0.uploadID == id && $0.key == "big.mp4" })
        let e1 = try await bucket.client.uploadPart(bucket: bucket.name, key: "big.mp4", uploadID: id, number: 1, body: part1)
        let e2 = try await bucket.client.uploadPart(bucket: bucket.name, key: "big.mp4", uploadID: id, number: 2, body: part2)
        try await bucket.client.completeMultipartUpload(bucket: bucket.name, key: "big.mp4", uploadID: id, parts: [(1, e1), (2, e2)])
        let object = try #require(try await bucket.client.getObject(bucket: bucket.name, key: "big.mp4"))
        #expect(object.size == part1.count + part2.count)
        #expect(object.bytes == part1 + part2)
        let tail = try #require(try await bucket.client.getObject(bucket: bucket.name, key: "big.mp4", range: (5 << 20) - 10...(5 << 20) + 9))
        #expect(tail.bytes == part1.suffix(10) + part2.prefix(10))
        #expect(try await bucket.client.listMultipartUploads(bucket: bucket.name).isEmpty)
    }

    @Test("Multipart abort: the upload is gone and no object appears")
    func abort() async throws {
        let bucket = try await SeaweedBucket.fresh()
        let id = try await bucket.client.createMultipartUpload(bucket: bucket.name, key: "aborted.mp4")
        _ = try await bucket.client.uploadPart(bucket: bucket.name, key: "aborted.mp4", uploadID: id, number: 1, body: patterned(1000))
        try await bucket.client.abortMultipartUpload(bucket: bucket.name, key: "aborted.mp4", uploadID: id)
        #expect(try await bucket.client.listMultipartUploads(bucket: bucket.name).isEmpty)
        #expect(try await bucket.client.headObject(bucket: bucket.name, key: "aborted.mp4") == nil)
        await #expect {
            try await bucket.client.completeMultipartUpload(bucket: bucket.name, key: "aborted.mp4", uploadID: id, parts: [])
        } throws: { error in
            (error as? S3Error)?.code != nil
        }
    }

    @Test("A presigned GET works with plain HTTP and nothing else; a tampered one is refused")
    func presigned() async throws {
        let bucket = try await SeaweedBucket.fresh()
        try await bucket.client.putObject(bucket: bucket.name, key: "shared/a b.mp4", body: Data("presigned body".utf8))
        let url = bucket.client.presignedURL(bucket: bucket.name, key: "shared/a b.mp4", expires: 300)
        #expect(url.contains("X-Amz-Signature="))

        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(30))
        #expect(response.status == .ok)
        let body = try await response.body.collect(upTo: 1 << 20)
        #expect(String(buffer: body) == "presigned body")

        let tampered = url.replacingOccurrences(of: "X-Amz-Expires=300", with: "X-Amz-Expires=3000")
        let refused = try await HTTPClient.shared.execute(HTTPClientRequest(url: tampered), timeout: .seconds(30))
        #expect(refused.status == .forbidden)
    }
}
