import Foundation
import ReelStoreSQLite

/// A fresh folder under the system temp directory, removed by `remove()`. Every test target
/// that needs files or a database file takes its folder from here.
public struct TemporaryFolder: Sendable {
    public let url: URL

    public init(prefix: String = "reel-tests") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Where a library's database lives inside this folder (created by the store on open).
    public var databasePath: String { url.appendingPathComponent("db/reelhouse.sqlite").path }

    public func remove() { try? FileManager.default.removeItem(at: url) }
}

/// An SQLite library in its own temporary folder: the real file-backed store (WAL and all),
/// thrown away by `remove()`.
public struct TemporaryDatabase: Sendable {
    public let folder: TemporaryFolder
    public let store: SQLiteStore

    public init(prefix: String = "reel-db") throws {
        folder = try TemporaryFolder(prefix: prefix)
        store = try SQLiteStore(path: folder.databasePath)
    }

    public func remove() { folder.remove() }
}
