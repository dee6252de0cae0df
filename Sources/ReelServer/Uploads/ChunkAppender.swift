import Foundation
import Hummingbird
import NIOCore
import ReelStorage

/// Copies one request body into an upload as it arrives, never past the declared length. With a
/// checksum, the chunk only counts if its digest matches; otherwise — and whenever the body
/// breaks off with a checksum pending — the upload is rewound to where the request started.
///
/// The bytes are gathered up to `flushBytes` and written on NIO's blocking-I/O pool
/// (`BlockingIO`): a slow disk must not hold one of Swift's few cooperative threads, which
/// every other request needs. Memory stays bounded by `flushBytes` per upload in flight.
struct ChunkAppender {
    let writer: any UploadWriter
    let limit: Int64
    let checksum: TusHeaders.Checksum?
    static let flushBytes = 1 << 20

    func append(_ body: RequestBody) async throws {
        let target = WriterHandle(writer)
        let start = writer.offset
        var hasher = checksum?.hasher()
        var pending = ByteBuffer()
        do {
            for try await buffer in body {
                guard writer.offset + Int64(pending.readableBytes + buffer.readableBytes) <= limit else {
                    throw APIError.uploadTooLarge("the body goes past Upload-Length (\(limit) bytes)")
                }
                buffer.withUnsafeReadableBytes { hasher?.update($0) }
                pending.writeImmutableBuffer(buffer)
                if pending.readableBytes >= Self.flushBytes { try await Self.flush(&pending, to: target) }
            }
            try await Self.flush(&pending, to: target)
        } catch {
            // A chunk that cannot be verified, or that overshot, is not kept; plain bytes that
            // arrived before a dropped connection are, so the client resumes after them.
            if checksum != nil || error is APIError {
                try? await BlockingIO.run { try target.writer.rewind(to: start) }
            } else {
                try? await Self.flush(&pending, to: target)
            }
            throw error
        }
        if let checksum, let hasher, hasher.finalize() != checksum.digest {
            try await BlockingIO.run { try target.writer.rewind(to: start) }
            throw APIError.checksumMismatch
        }
    }

    private static func flush(_ pending: inout ByteBuffer, to target: WriterHandle) async throws {
        guard pending.readableBytes > 0 else { return }
        let bytes = pending
        pending.clear()
        try await BlockingIO.run { try bytes.withUnsafeReadableBytes { try target.writer.write($0) } }
    }
}

/// Hands the upload's writer to the blocking-I/O pool. Safe because one request owns the
/// writer while it holds the upload's lock, and each write is awaited before the next begins.
private struct WriterHandle: @unchecked Sendable {
    let writer: any UploadWriter
    init(_ writer: any UploadWriter) { self.writer = writer }
}
