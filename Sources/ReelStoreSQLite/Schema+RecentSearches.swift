import GRDB

extension Schema {
    /// v11: each user's recent searches. `query_key` (the query lowercased and trimmed) makes a
    /// repeated search one row whose time moves forward; `query` keeps the latest spelling.
    static func addRecentSearches(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE recent_searches (
                user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                query_key TEXT NOT NULL,
                query TEXT NOT NULL,
                searched_at REAL NOT NULL,
                PRIMARY KEY (user_id, query_key)
            ) WITHOUT ROWID;
            CREATE INDEX recent_searches_by_time ON recent_searches(user_id, searched_at);
            """)
    }
}
