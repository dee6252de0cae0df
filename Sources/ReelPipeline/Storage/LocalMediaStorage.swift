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

    private func directory(for postKey: String) throws -> URL {
        guard Self.isValidKey(postKey) else { throw PipelineError.storage("invalid post key \(postKey)") }
        return root.appendingPathComponent(postKey, isDirectory: true)
    }

    /// Post keys are decimal post ids; anything else is refused before it reaches a path.
    static func isValidKey(_ key: String) -> Bool {
        !key.isEmpty && key.count <= 20 && key.allSatisfy { $0.isASCII && $0.isNumber }
    }
}
