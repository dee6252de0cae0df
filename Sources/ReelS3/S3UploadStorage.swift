import Foundation
import Logging
import ReelStorage

/// Resumable uploads in the bucket, so any API node can take over an upload another one
/// started (a node killed mid-upload, a client routed elsewhere) and a worker on yet another
/// node can import it:
///
/// ```
/// {prefix}uploads/{id}/record.json                  what the upload is (UploadRecord)
/// {prefix}uploads/{id}/parts/{start offset, 20 digits}   the bytes, a part per few MiB
/// ```
///
/// **Parts are objects of their own, keyed by their first byte's offset**, not S3 multipart
/// parts: a multipart part must be at least 5 MiB (except the last), and tus chunks are any
/// size the client likes (a phone may send 256 KiB at a time), and an unfinished multipart
/// upload cannot be read back to hash or resume from. The offset is the length of the run of
/// parts that follow each other from 0; an S3 PUT is all or nothing, so a part cut short by a
/// dying node never exists, and a chunk whose checksum fails has its parts deleted.
///
/// **No two writers store the same offset**: each part is written with `If-None-Match: *`.
/// Two PATCHes that both found the offset at X (on two nodes, or a stale one from a killed
/// node's client) race for the key `parts/X`: the bucket keeps exactly one, and the other gets
/// 409 (`PipelineError.uploadConflict`) without storing anything. Within one node `UploadLocks`
/// still queues a second PATCH behind the first.
///
/// A PATCH body is held in memory up to `partBytes` before it is stored, while the part before
/// it goes up, so a node keeps at most two parts (plus the request's 1 MiB gathering) per
/// upload in flight.
public struct S3UploadStorage: UploadStorage {
    public let client: S3Client
    public let location: S3Location
    /// Where `withCompletedFile` assembles an upload for the import (the data folder's `tmp/`).
    public let scratch: URL
    /// Bytes a writer gathers before storing them as one part.
    public var partBytes = 8 << 20
    let logger: Logger

    public init(client: S3Client, location: S3Location, scratch: URL, logger: Logger = Logger(label: "reelhouse.s3.uploads")) {
        self.client = client
        self.location = location
        self.scratch = scratch
        self.logger = logger
    }

    var bucket: String { location.bucket }
    var uploadsPrefix: String { "\(location.prefix)uploads/" }

    func prefix(_ id: String) throws -> String {
        guard UploadRecord.isValidID(id) else { throw PipelineError.inconsistent("not an upload id") }
        return "\(uploadsPrefix)\(id)/"
    }

    func recordKey(_ id: String) throws -> String { try prefix(id) + "record.json" }
    func partsPrefix(_ id: String) throws -> String { try prefix(id) + "parts/" }
    func partKey(_ id: String, start: Int64) throws -> String { try partsPrefix(id) + Self.partName(start) }

    /// Zero-padded so keys sort (and list) in offset order.
    static func partName(_ start: Int64) -> String {
        let digits = String(start)
        return String(repeating: "0", count: max(0, 20 - digits.count)) + digits
    }

    // MARK: - Records

    public func create(_ record: UploadRecord) async throws {
        try await client.putObject(
            bucket: bucket, key: try recordKey(record.id), body: try record.encoded(), contentType: "application/json", onlyIfAbsent: true
        )
    }

    public func record(id: String) async throws -> UploadRecord? {
        guard let object = try await client.getObject(bucket: bucket, key: try recordKey(id)) else { return nil }
        return try UploadRecord(encoded: object.bytes)
    }

    public func save(_ record: UploadRecord) async throws {
        try await client.putObject(
            bucket: bucket, key: try recordKey(record.id), body: try record.encoded(), contentType: "application/json"
        )
    }

    // MARK: - Bytes

    /// One stored part: its first byte's offset and its size.
    struct Part: Equatable {
        var start: Int64
        var size: Int64
        var end: Int64 { start + size }
    }

    /// The parts that follow each other from offset 0; anything after a gap (or overlapping)
    /// does not count.
    func contiguousParts(id: String) async throws -> [Part] {
        let prefix = try partsPrefix(id)
        let stored = try await client.listAll(bucket: bucket, prefix: prefix).compactMap { entry -> Part? in
            guard let start = Int64(entry.key.dropFirst(prefix.count)), start >= 0 else { return nil }
            return Part(start: start, size: Int64(entry.size))
        }
        return Self.contiguous(stored)
    }

    static func contiguous(_ parts: [Part]) -> [Part] {
        var run: [Part] = []
        var next: Int64 = 0
        for part in parts.sorted(by: { $0.start < $1.start }) where part.start == next && part.size > 0 {
            run.append(part)
            next = part.end
        }
        return run
    }

    public func offset(id: String) async throws -> Int64 {
        try await contiguousParts(id: id).last?.end ?? 0
    }

    public func openWriter(id: String, at offset: Int64) async throws -> any UploadWriter {
        S3UploadWriter(storage: self, id: id, offset: offset)
    }

    /// Fetches the parts in order into a file under `scratch`, hands it to `body`, deletes it.
    /// Files a killed worker left there (a day old: an assembly takes seconds) go first.
    public func withCompletedFile<T>(id: String, _ body: (URL) async throws -> T) async throws -> T {
        let parts = try await contiguousParts(id: id)
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        Self.removeFiles(in: scratch, olderThan: Date().addingTimeInterval(-86_400))
        let file = scratch.appendingPathComponent("upload-\(id)-\(UUID().uuidString.lowercased()).bin")
        guard FileManager.default.createFile(atPath: file.path, contents: nil), let handle = FileHandle(forWritingAtPath: file.path) else {
            throw PipelineError.storage("cannot create a file in \(scratch.path) to assemble an upload")
        }
        defer { try? FileManager.default.removeItem(at: file) }
        do {
            defer { try? handle.close() }
            for part in parts {
                guard let object = try await client.getObject(bucket: bucket, key: try partKey(id, start: part.start)),
                      Int64(object.bytes.count) == part.size
                else { throw PipelineError.storage("a part of upload \(id) vanished while it was being assembled") }
                try handle.write(contentsOf: object.bytes)
            }
        }
        return try await body(file)
    }

    static func removeFiles(in folder: URL, olderThan cutoff: Date) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names where name.hasPrefix("upload-") {
            let url = folder.appendingPathComponent(name)
            let modified = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date
            if let modified, modified < cutoff { try? FileManager.default.removeItem(at: url) }
        }
    }

    public func remove(id: String) async {
        guard let prefix = try? prefix(id) else { return }
        do { try await client.deleteAll(bucket: bucket, prefix: prefix) } catch {
            logger.warning("could not delete an upload's objects", metadata: ["upload": "\(id)", "error": "\(error)"])
        }
    }

    public func discardBytes(id: String) async {
        guard let prefix = try? partsPrefix(id) else { return }
        do { try await client.deleteAll(bucket: bucket, prefix: prefix) } catch {
            logger.warning("could not delete an upload's parts", metadata: ["upload": "\(id)", "error": "\(error)"])
        }
    }

    // MARK: - Scans

    /// Every upload id with a folder under `uploads/`.
    func uploadIDs() async throws -> [String] {
        var ids: [String] = []
        var token: String? = nil
        repeat {
            let page = try await client.listObjects(bucket: bucket, prefix: uploadsPrefix, delimiter: "/", continuationToken: token)
            ids += page.commonPrefixes.map { String($0.dropFirst(uploadsPrefix.count).dropLast()) }.filter { UploadRecord.isValidID($0) }
            token = page.nextContinuationToken
        } while token != nil
        return ids
    }

    public func awaitingImport() async throws -> [UploadRecord] {
        var waiting: [UploadRecord] = []
        for id in try await uploadIDs() {
            guard let record = try? await record(id: id), record.outcome == nil, try await offset(id: id) == record.length else { continue }
            waiting.append(record)
        }
        return waiting
    }

    /// Uploads whose record expired, and parts without a readable record whose newest object is
    /// more than an hour old (a creation that died between its first part and its record
    /// cannot happen, so these are leftovers of a removal that stopped half-way).
    public func expired(now: Date) async throws -> [String] {
        var ids: [String] = []
        for id in try await uploadIDs() {
            if let record = try? await record(id: id) {
                if record.expiresAt <= now { ids.append(id) }
                continue
            }
            // SeaweedFS keeps listing an emptied folder: only one with objects is worth removing.
            let objects = try await client.listAll(bucket: bucket, prefix: try prefix(id))
            guard let newest = objects.compactMap(\.lastModified).max() else { continue }
            if now.timeIntervalSince(newest) > 3600 { ids.append(id) }
        }
        return ids.sorted()
    }
}
