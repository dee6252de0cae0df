import GRDB
import ReelModels


extension Schema {
    /// v16: For You's candidate stage finds an uploader's ready posts by the uploader key
    /// (`UploaderKey`: `uploader`, else `username`, trimmed and lowercased) with one index seek.
    /// The key is computed by `reelhouse_uploader_key`, which every connection of `SQLiteStore`
    /// registers, so the index agrees with the key Swift computes (Unicode lowercasing, which
    /// SQLite's ASCII-only `lower()` would not).
    static func addForYouIndexes(_ db: Database) throws {
        try db.execute(sql: """
            CREATE INDEX posts_ready_by_uploader_key ON posts(\(UploaderKeyFunction.name)(uploader, username), id)
                WHERE status = 'ready';
            """)
    }
}

/// `reelhouse_uploader_key(uploader, username)`: `UploaderKey.key`, registered on every
/// connection (the v16 index and the feed's hidden-uploader condition call it). Pure, so it
/// may be indexed.
enum UploaderKeyFunction {
    static let name = "reelhouse_uploader_key"

    static let function = DatabaseFunction(name, argumentCount: 2, pure: true) { values in
        UploaderKey.key(uploader: String.fromDatabaseValue(values[0]), username: String.fromDatabaseValue(values[1]))
    }
}
