import Foundation
import Hummingbird
import NIOCore
import ReelPipeline

/// Copies one request body into an upload as it arrives (a chunk in memory at a time), never
/// past the declared length. With a checksum, the chunk only counts if its digest matches;
/// otherwise — and whenever the body breaks off with a checksum pending — the upload is
/// rewound to where the request started.
struct ChunkAppender {
    let writer: any UploadWriter
    let limit: Int64
    let checksum: TusHeaders.Checksum?

    func append(_ body: RequestBody) async throws {
        let start = writer.offset
        var hasher = checksum?.hasher()
        do {
            for try await buffer in body {
                guard writer.offset + Int64(buffer.readableBytes) <= limit else {
                    throw APIError.uploadTooLarge("the body goes past Upload-Length (\(limit) bytes)")
                }
                try buffer.withUnsafeReadableBytes { bytes in
                    hasher?.update(bytes)
                    try writer.write(bytes)
                }
            }
        } catch {
            // A chunk that cannot be verified, or that overshot, is not kept; plain bytes that
            // arrived before a dropped connection are, so the client resumes after them.
            if checksum != nil || error is APIError { try? writer.rewind(to: start) }
            throw error
        }
        if let checksum, let hasher, hasher.finalize() != checksum.digest {
            try writer.rewind(to: start)
            throw APIError.checksumMismatch
        }
    }
}
