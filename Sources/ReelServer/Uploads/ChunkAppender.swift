import Foundation
import Hummingbird
import NIOCore
import ReelStorage

/// Copies one request body into an upload as it arrives, never past the declared length. With a
/// checksum, the chunk only counts if its digest matches; otherwise — and whenever the body
/// breaks off with a checksum pending — the upload is rewound to where the request started.
///
/// The bytes are gathered up to `flushBytes` and handed to the writer, which stores them (the
/// local one on NIO's blocking-I/O pool, the bucket one as a part per few MiB). Memory stays
/// bounded by `flushBytes` plus the writer's part per upload in flight.
struct ChunkAppender {
    let writer: any UploadWriter
    let limit: Int64
    let checksum: TusHeaders.Checksum?
    static let flushBytes = 1 << 20

    func append(_ body: RequestBody) async throws {
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
                if pending.readableBytes >= Self.flushBytes { try await flush(&pending) }
            }
            try await flush(&pending)
            try await writer.flush()
        } catch PipelineError.uploadConflict(let reason) {
            // Another request stored these offsets first: what it stored stays, ours is dropped.
            throw PipelineError.uploadConflict(reason)
        } catch {
            // A chunk that cannot be verified, or that overshot, is not kept; plain bytes that
            // arrived before a dropped connection are, so the client resumes after them.
            if checksum != nil || error is APIError {
                try? await writer.rewind(to: start)
            } else {
                try? await flush(&pending)
                try? await writer.flush()
            }
            throw error
        }
        if let checksum, let hasher, hasher.finalize() != checksum.digest {
            try await writer.rewind(to: start)
            throw APIError.checksumMismatch
        }
    }

    private func flush(_ pending: inout ByteBuffer) async throws {
        guard pending.readableBytes > 0 else { return }
        let bytes = pending
        pending.clear()
        try await writer.write(bytes)
    }
}
