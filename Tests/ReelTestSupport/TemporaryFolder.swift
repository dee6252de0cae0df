import Foundation
@_exported import ReelTestFiles
import ReelStoreSQLite

extension TemporaryFolder {
    /// Where a library's database lives inside this folder (created by the store on open).
    public var databasePath: String { url.appendingPathComponent("db/reelhouse.sqlite").path }
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
