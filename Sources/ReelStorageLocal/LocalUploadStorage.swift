import Foundation
import NIOCore
import ReelStorage

/// Uploads as two files each under `uploads/`: `<id>.bin` (bytes so far) and `<id>.json`
/// (the record). The offset is the size of the `.bin` file, so a crash mid-PATCH never leaves
/// a record that claims more than the disk holds.
///
/// Its file operations are small and run inline (they satisfy the async protocol as they are);
/// only a PATCH's bytes go through the blocking-I/O pool (`FileUploadWriter`).
public struct LocalUploadStorage: UploadStorage {
    let root: URL

    public init(root: URL) {
        self.root = root
    }

    public func prepare() throws {
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    private func dataURL(_ id: String) throws -> URL {
        guard UploadRecord.isValidID(id) else { throw PipelineError.inconsistent("not an upload id") }
        return root.appendingPathComponent("\(id).bin")
    }

    private func recordURL(_ id: String) throws -> URL {
        guard UploadRecord.isValidID(id) else { throw PipelineError.inconsistent("not an upload id") }
        return root.appendingPathComponent("\(id).json")
    }

    public func create(_ record: UploadRecord) throws {
        try prepare()
        guard FileManager.default.createFile(atPath: try dataURL(record.id).path, contents: nil) else {
            throw PipelineError.storage("cannot create an upload file in \(root.path)")
        }
        try save(record)
    }

    public func record(id: String) throws -> UploadRecord? {
        let url = try recordURL(id)
        guard let data = try? Data(contentsOf: url) else { return nil }
        return try UploadRecord(encoded: data)
    }

    public func save(_ record: UploadRecord) throws {
        try record.encoded().write(to: try recordURL(record.id), options: .atomic)
    }

    public func offset(id: String) throws -> Int64 {
        let path = try dataURL(id).path
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        return (attributes?[.size] as? NSNumber)?.int64Value ?? 0
    }

    public func openWriter(id: String, at offset: Int64) throws -> any UploadWriter {
        let url = try dataURL(id)
        guard let handle = FileHandle(forWritingAtPath: url.path) else {
            throw PipelineError.storage("the upload's bytes are missing from \(root.path)")
        }
        let writer = try FileUploadWriter(handle: handle)
        // One node's folder and its lock: the end cannot move after the caller checked it, but
        // a writer must never append anywhere but where it was told.
        guard writer.offset == offset else {
            try? handle.close()
            throw PipelineError.uploadConflict("the upload has \(writer.offset) bytes, not \(offset); ask for the offset (HEAD) and send from there")
        }
        return writer
    }

    public func completedFile(id: String) throws -> URL { try dataURL(id) }

    /// The `.bin` file itself: nothing to assemble, nothing to delete afterwards.
    public func withCompletedFile<T>(id: String, _ body: (URL) async throws -> T) async throws -> T {
        try await body(try dataURL(id))
    }

    public func remove(id: String) {
        for url in [try? dataURL(id), try? recordURL(id)].compactMap({ $0 }) {
            try? FileManager.default.removeItem(at: url)
        }
    }

    public func discardBytes(id: String) {
        if let url = try? dataURL(id) { try? FileManager.default.removeItem(at: url) }
    }

    public func awaitingImport() throws -> [UploadRecord] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.compactMap { name -> UploadRecord? in
            let id = String(name.dropLast(5))
            guard UploadRecord.isValidID(id), let record = try? record(id: id), record.outcome == nil,
                  (try? offset(id: id)) == record.length
            else { return nil }
            return record
        }
    }

    public func expired(now: Date) throws -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        var ids = Set<String>()
        for name in names {
            let id = String(name.prefix { $0 != "." })
            guard UploadRecord.isValidID(id), !ids.contains(id) else { continue }
            // A record that cannot be read (or bytes without a record) is as good as expired.
            guard let record = try? record(id: id) else {
                let created = (try? FileManager.default.attributesOfItem(atPath: root.appendingPathComponent(name).path)[.modificationDate]) as? Date
                if now.timeIntervalSince(created ?? now) > 3600 { ids.insert(id) }
                continue
            }
            if record.expiresAt <= now { ids.insert(id) }
        }
        return ids.sorted()
    }
}

/// Appends to the `.bin` file through one handle, positioned at its end. Each write (a
/// megabyte gathered by the request) runs on NIO's blocking-I/O pool (`BlockingIO`): a slow disk
/// must not hold one of Swift's few cooperative threads, which every other request needs.
final class FileUploadWriter: UploadWriter {
    private let handle: SendableFileHandle
    private(set) var offset: Int64

    init(handle: FileHandle) throws {
        self.handle = SendableFileHandle(handle: handle)
        offset = Int64(try handle.seekToEnd())
    }

    func write(_ bytes: ByteBuffer) async throws {
        guard bytes.readableBytes > 0 else { return }
        let handle = handle
        try await BlockingIO.run { try bytes.withUnsafeReadableBytes { try handle.write($0) } }
        offset += Int64(bytes.readableBytes)
    }

    /// Every write went straight to the file.
    func flush() async throws {}

    func rewind(to offset: Int64) async throws {
        let handle = handle
        try await BlockingIO.run { try handle.truncate(at: offset) }
        self.offset = offset
    }

    func close() async {
        try? handle.handle.close()
    }
}

/// Hands the upload's file handle to the blocking-I/O pool. Safe because one request owns the
/// writer while it holds the upload's lock, and each write is awaited before the next begins.
private struct SendableFileHandle: @unchecked Sendable {
    let handle: FileHandle

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        try handle.write(contentsOf: Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: bytes.count, deallocator: .none))
    }

    func truncate(at offset: Int64) throws {
        try handle.truncate(atOffset: UInt64(offset))
        try handle.seek(toOffset: UInt64(offset))
    }
}
