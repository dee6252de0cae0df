import Foundation
import Hummingbird
import NIOCore
import ReelStorage

/// A file in object storage (S3) sent as a response body one ranged GET at a time, so a node
/// holds at most one chunk of it per response whatever its size: a `download.mp4` of 300 MB
/// costs 2 MiB of memory, not 300 MB. A segment or playlist fits one chunk and is one GET, as
/// before.
///
/// The first chunk is fetched before the response starts, so a file that is gone is still a
/// clean 404. A later chunk that is gone or has another ETag (the post was removed or
/// re-published mid-download) ends the body early: the client sees fewer bytes than the
/// `Content-Length` it was promised and knows the download failed, rather than getting a
/// mixture of two versions.
struct StoredObjectStream: Sendable {
    static let defaultChunkBytes = 2 << 20

    let postKey: String
    let name: String
    let storage: any MediaStorage
    let chunkBytes: Int

    /// The first chunk of a file whose size is not known yet (a plain GET, sent without a
    /// look-up first); nil when the file is missing or empty (a look-up tells which).
    func leadingChunk() async throws -> StoredObject? {
        guard let object = try await storage.object(postKey: postKey, relativePath: name, range: 0...(chunkBytes - 1)),
              !object.bytes.isEmpty, object.bytes.count == min(chunkBytes, object.size)
        else { return nil }
        return object
    }

    /// The first chunk of `span` of a file of `size` bytes; nil when the file is gone or no
    /// longer that size.
    func firstChunk(of span: ClosedRange<Int>, size: Int) async throws -> StoredObject? {
        guard let part = Self.parts(of: span, chunkBytes: chunkBytes).first else { return nil }
        // The whole of a small file: a plain GET, as a cache or CDN would send it.
        let whole = part == 0...(size - 1)
        guard let object = try await storage.object(postKey: postKey, relativePath: name, range: whole ? nil : part),
              object.size == size, object.bytes.count == part.count
        else { return nil }
        return object
    }

    /// The body for `span`, starting with its already fetched first chunk.
    func body(of span: ClosedRange<Int>, first: StoredObject) -> ResponseBody {
        let rest = Array(Self.parts(of: span, chunkBytes: chunkBytes).dropFirst())
        guard !rest.isEmpty else { return ResponseBody(byteBuffer: ByteBuffer(bytes: first.bytes)) }
        return ResponseBody(contentLength: span.count) { writer in
            try await writer.write(ByteBuffer(bytes: first.bytes))
            for part in rest {
                guard let object = try await storage.object(postKey: postKey, relativePath: name, range: part),
                      object.etag == first.etag, object.bytes.count == part.count
                else { throw StoredObjectChanged(postKey: postKey, name: name) }
                try await writer.write(ByteBuffer(bytes: object.bytes))
            }
            try await writer.finish(nil)
        }
    }

    /// `span` cut into consecutive ranges of at most `chunkBytes`.
    static func parts(of span: ClosedRange<Int>, chunkBytes: Int) -> [ClosedRange<Int>] {
        stride(from: span.lowerBound, through: span.upperBound, by: max(1, chunkBytes)).map {
            $0...min(span.upperBound, $0 + max(1, chunkBytes) - 1)
        }
    }
}

/// A stored file changed or went away while its body was being sent (the response is cut short).
struct StoredObjectChanged: Error, CustomStringConvertible {
    let postKey: String
    let name: String
    var description: String { "media \(postKey)/\(name) changed or vanished while it was sent" }
}
