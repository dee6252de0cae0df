import Foundation
import ReelStorage

/// `MediaStorage` on the local disk: one directory per post under `media/`, published by a
/// single `rename(2)` from `tmp/` (same file system, so it is atomic).
public struct LocalMediaStorage: MediaStorage {
    public let root: URL

    public init(root: URL) {
        self.root = root
    }

    public func publish(stagedDirectory: URL, postKey: String) async throws {
        let destination = try directory(for: postKey)
        let fileManager = FileManager.default
        try fileManager.createDirectory(at: root, withIntermediateDirectories: true)
        if fileManager.fileExists(atPath: destination.path) {
            // Left by an attempt that moved its files but died before the database said
            // `ready`; the post is not published, so nothing serves these files.
            try fileManager.removeItem(at: destination)
        }
        do {
            try fileManager.moveItem(at: stagedDirectory, to: destination)
        } catch {
            throw PipelineError.storage("cannot move \(stagedDirectory.path) into place: \(error.localizedDescription)")
        }
    }

    public func remove(postKey: String) async throws {
        let destination = try directory(for: postKey)
        if FileManager.default.fileExists(atPath: destination.path) {
            try FileManager.default.removeItem(at: destination)
        }
    }

    public func postKeys() async throws -> [String] {
        guard FileManager.default.fileExists(atPath: root.path) else { return [] }
        return try FileManager.default.contentsOfDirectory(atPath: root.path).filter(Self.isValidKey).sorted()
    }

    public func localFile(postKey: String, relativePath: String) -> URL? {
        guard let directory = try? directory(for: postKey) else { return nil }
        return directory.appendingPathComponent(relativePath)
    }

    public func objectInfo(postKey: String, relativePath: String) async throws -> StoredObjectInfo? {
        guard let file = readableFile(postKey: postKey, relativePath: relativePath) else { return nil }
        return try await BlockingIO.run { Self.info(of: file) }
    }

    public func object(postKey: String, relativePath: String, range: ClosedRange<Int>?) async throws -> StoredObject? {
        guard let file = readableFile(postKey: postKey, relativePath: relativePath) else { return nil }
        return try await BlockingIO.run { () throws -> StoredObject? in
            guard let info = Self.info(of: file) else { return nil }
            if let range, range.lowerBound < 0 || range.lowerBound >= info.size { return nil }
            let covered = range.map { $0.lowerBound...min($0.upperBound, info.size - 1) }
            let handle = try FileHandle(forReadingFrom: file)
            defer { try? handle.close() }
            if let covered { try handle.seek(toOffset: UInt64(covered.lowerBound)) }
            let bytes = try handle.read(upToCount: covered?.count ?? info.size) ?? Data()
            return StoredObject(bytes: bytes, size: info.size, etag: info.etag, range: covered)
        }
    }

    /// The file behind a plain relative path (no empty, `.` or `..` segment, no leading `/`).
    private func readableFile(postKey: String, relativePath: String) -> URL? {
        let segments = relativePath.split(separator: "/", omittingEmptySubsequences: false)
        guard !relativePath.isEmpty, segments.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }) else { return nil }
        return localFile(postKey: postKey, relativePath: relativePath)
    }

    /// A regular file's size and an ETag from its size and modification time (`lstat`: a
    /// symbolic link is not a stored object).
    private static func info(of file: URL) -> StoredObjectInfo? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: file.path),
              attributes[.type] as? FileAttributeType == .typeRegular,
              let size = (attributes[.size] as? NSNumber)?.intValue
        else { return nil }
        let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        return StoredObjectInfo(size: size, etag: "\"\(size)-\(Int64((modified * 1_000_000_000).rounded()))\"")
    }

    private func directory(for postKey: String) throws -> URL {
        guard Self.isValidKey(postKey) else { throw PipelineError.storage("invalid post key \(postKey)") }
        return root.appendingPathComponent(postKey, isDirectory: true)
    }

    /// Post keys are decimal post ids; anything else is refused before it reaches a path.
    static func isValidKey(_ key: String) -> Bool {
        !key.isEmpty && key.count <= 20 && key.allSatisfy { $0.isASCII && $0.isNumber }
    }
}
