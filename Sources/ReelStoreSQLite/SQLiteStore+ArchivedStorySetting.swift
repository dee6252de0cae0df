import GRDB
import ReelStore

extension SQLiteStore: ArchivedStorySettingStore {
    public func keepsArchivedStories(libraryID: Int64) async throws -> Bool {
        try await read { db in
            guard let keep = try Bool.fetchOne(db, sql: "SELECT keep_archived_stories FROM libraries WHERE id = ?", arguments: [libraryID]) else {
                throw StoreError.notFound("library \(libraryID)")
            }
            return keep
        }
    }
}
