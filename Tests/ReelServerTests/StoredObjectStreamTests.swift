import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ReelModels
import ReelPipeline
import ReelS3
import ReelStorage
import Testing

@testable import ReelServer

/// A big file in the bucket goes out one ranged GET at a time (the memory a response holds is
/// one chunk, not the file), and a file replaced mid-download cuts the body short instead of
/// splicing two versions together. Real SeaweedFS, the fixture's 3 MiB download.
@Suite("Stored files streamed by chunks")
struct StoredObjectStreamTests {
    /// Collects what a response body writes (a reference, since the writer is consumed).
    final class Collected: @unchecked Sendable {
        var bytes = Data()
        var writes = 0
        var finished = false
    }

    struct CollectingWriter: ResponseBodyWriter {
        let collected: Collected
        mutating func write(_ buffer: ByteBuffer) async throws {
            collected.bytes.append(contentsOf: buffer.readableBytesView)
            collected.writes += 1
        }
        consuming func finish(_ trailingHeaders: HTTPFields?) async throws { collected.finished = true }
    }

    static func collect(_ body: ResponseBody) async throws -> Collected {
        let collected = Collected()
        try await body.write(CollectingWriter(collected: collected))
        return collected
    }

    @Test("Chunks cover a span exactly, in order, none larger than the chunk size")
    func parts() {
        #expect(StoredObjectStream.parts(of: 0...9, chunkBytes: 4) == [0...3, 4...7, 8...9])
        #expect(StoredObjectStream.parts(of: 5...5, chunkBytes: 4) == [5...5])
        #expect(StoredObjectStream.parts(of: 3...10, chunkBytes: 8) == [3...10])
        #expect(StoredObjectStream.parts(of: 0...2, chunkBytes: 0) == [0...0, 1...1, 2...2])
    }

    @Test("Every span of a file bigger than a chunk streams the right bytes; the leading chunk tells the size")
    func spans() async throws {
        let fixture = try await MediaFixture()
        let storage = try await MediaFromObjectStorageTests.bucketStorage(fixture)
        let download = MediaFixture.download
        let stream = StoredObjectStream(postKey: String(fixture.postA.id), name: "download.mp4", storage: storage, chunkBytes: 300_000)

        let leading = try #require(try await stream.leadingChunk())
        #expect(leading.size == download.count)
        #expect(leading.bytes == download.prefix(300_000))
        for span in [0...(download.count - 1), 5...700_004, (download.count - 10)...(download.count - 1), 299_999...300_000, 7...7] {
            let first = try #require(try await stream.firstChunk(of: span, size: download.count), "\(span)")
            let body = stream.body(of: span, first: first)
            #expect(body.contentLength == span.count, "\(span)")
            let collected = try await Self.collect(body)
            #expect(collected.bytes == download[span], "\(span)")
            #expect(collected.writes == StoredObjectStream.parts(of: span, chunkBytes: 300_000).count, "\(span)")
            #expect(collected.finished, "\(span)")
        }
        // A size that no longer matches (the file was replaced since the look-up) is no first chunk.
        #expect(try await stream.firstChunk(of: 0...99, size: download.count + 1) == nil)
        let missing = StoredObjectStream(postKey: String(fixture.postA.id), name: "nope.mp4", storage: storage, chunkBytes: 300_000)
        #expect(try await missing.leadingChunk() == nil)
    }

    @Test("A file re-published mid-download ends the body early with an error, never a mixture")
    func replacedMidway() async throws {
        let fixture = try await MediaFixture()
        let storage = try await MediaFromObjectStorageTests.bucketStorage(fixture)
        let post = fixture.postA!
        let stream = StoredObjectStream(postKey: String(post.id), name: "download.mp4", storage: storage, chunkBytes: 1 << 20)
        let first = try #require(try await stream.leadingChunk())

        // The same names, other bytes (a re-transcode): a new ETag for download.mp4.
        let staged = fixture.root.appendingPathComponent("restaged-\(post.id)", isDirectory: true)
        try FileManager.default.copyItem(at: fixture.data.mediaRoot.appendingPathComponent(String(post.id)), to: staged)
        try Data(MediaFixture.download.reversed()).write(to: staged.appendingPathComponent("download.mp4"))
        try await storage.publish(stagedDirectory: staged, postKey: String(post.id))

        let collected = Collected()
        await #expect(throws: StoredObjectChanged.self) {
            try await stream.body(of: 0...(first.size - 1), first: first).write(CollectingWriter(collected: collected))
        }
        #expect(collected.bytes == MediaFixture.download.prefix(1 << 20))
        #expect(!collected.finished)
    }
}
