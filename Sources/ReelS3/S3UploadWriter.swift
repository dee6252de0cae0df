import Foundation
import NIOCore
import NIOFoundationCompat
import ReelStorage

/// One PATCH's writer: gathers bytes and, whenever `partBytes` are held, stores them as a part
/// (conditionally) while the next ones arrive: one part in flight at a time, so receiving and
/// storing overlap and a node holds at most two parts of a PATCH. Remembers the parts it
/// stored, so a rewind deletes only those. After a part fails, the writer stores nothing more
/// (the client asks for the offset and resumes after what was stored).
final class S3UploadWriter: UploadWriter {
    let storage: S3UploadStorage
    let id: String
    private let openedAt: Int64
    private(set) var offset: Int64
    /// Where the held bytes start.
    private var partStart: Int64
    private var held = ByteBuffer()
    private var inFlight: Task<S3UploadStorage.Part, any Error>?
    private var stored: [S3UploadStorage.Part] = []

    init(storage: S3UploadStorage, id: String, offset: Int64) {
        self.storage = storage
        self.id = id
        openedAt = offset
        self.offset = offset
        partStart = offset
    }

    func write(_ bytes: ByteBuffer) async throws {
        held.writeImmutableBuffer(bytes)
        offset += Int64(bytes.readableBytes)
        if held.readableBytes >= storage.partBytes { try await storeHeld() }
    }

    func flush() async throws {
        if held.readableBytes > 0 { try await storeHeld() }
        try await settle()
    }

    /// Waits for the part in flight, if any, and records it.
    private func settle() async throws {
        guard let task = inFlight else { return }
        inFlight = nil
        stored.append(try await task.value)
    }

    /// Starts storing the held bytes, once the part before them is stored.
    private func storeHeld() async throws {
        try await settle()
        let part = S3UploadStorage.Part(start: partStart, size: Int64(held.readableBytes))
        let key = try storage.partKey(id, start: part.start)
        let (client, bucket, body) = (storage.client, storage.bucket, Data(buffer: held))
        inFlight = Task {
            do {
                try await client.putObject(bucket: bucket, key: key, body: body, onlyIfAbsent: true)
            } catch let error as S3Error where error.code == "PreconditionFailed" || error.code == "ConditionalRequestConflict" {
                // 412: the part is there already. 409 (AWS): a conflicting write was under way.
                throw PipelineError.uploadConflict(
                    "another request stored bytes of this upload at offset \(part.start) first; ask for the offset (HEAD) and send from there"
                )
            }
            return part
        }
        partStart = part.end
        held.clear()
    }

    func rewind(to target: Int64) async throws {
        guard target >= openedAt, target <= offset else {
            throw PipelineError.inconsistent("an upload writer can only rewind within what it wrote")
        }
        if target >= partStart {
            // Still held, not stored: just forget the tail.
            held.moveWriterIndex(to: held.readerIndex + Int(target - partStart))
        } else {
            // A part in flight is stored or not; either way it is then one of ours or nothing.
            _ = try? await settle()
            guard target == openedAt || stored.contains(where: { $0.end == target }) else {
                throw PipelineError.inconsistent("an upload can only be rewound to the start of a stored part")
            }
            let keys = try stored.filter { $0.start >= target }.map { try storage.partKey(id, start: $0.start) }
            let failed = try await storage.client.deleteObjects(bucket: storage.bucket, keys: keys)
            if let first = failed.first { throw PipelineError.storage("could not delete the upload part \(first)") }
            stored.removeAll { $0.start >= target }
            held.clear()
            partStart = target
        }
        offset = target
    }

    /// Held bytes are dropped; a part in flight is waited for (it is stored or not, whole).
    func close() async {
        _ = try? await settle()
        held.clear()
    }
}
