import Foundation
import ReelModels
import ReelStore
@testable import ReelStorePostgres
@testable import ReelStoreSQLite
import ReelTestSupport
import Testing
import ReelTestFiles

/// SQLite's two ways of opening a library: in memory and a file (WAL).
enum StoreLocation: String, CaseIterable, Sendable {
    case inMemory
    case file
}

/// Runs `body` with a fresh store of the given kind, cleaning up its file afterwards.
func withStore(_ location: StoreLocation, _ body: (SQLiteStore) async throws -> Void) async throws {
    switch location {
    case .inMemory:
        try await body(try SQLiteStore.inMemory())
    case .file:
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try await body(try SQLiteStore(path: folder.databasePath))
    }
}
