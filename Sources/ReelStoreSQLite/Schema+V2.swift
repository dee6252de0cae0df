import GRDB

extension Schema {
    /// v2: accounts, API keys, sessions, per-user post state, tags and flags with stable ids,
    /// and the shuffle keys behind the feed.
    ///
    /// Tags and flags move to id-keyed vocabularies (`tags`, `flags`) linked by `post_tag_ids` /
    /// `post_flag_ids`; the v1 table names live on as read-only views with the v1 columns
    /// (`post_id, tag` / `post_id, flag`), so existing SQL that reads them keeps working. Names
    /// are unique ignoring (ASCII) case: the first spelling seen becomes the tag's name.
    /// Link rows keep v1's order through their rowid, which only grows.
    static func addAccountsSocialAndFeed(_ db: Database) throws {
        for (vocabulary, link, column, legacy, legacyColumn) in [
            ("tags", "post_tag_ids", "tag_id", "post_tags", "tag"),
            ("flags", "post_flag_ids", "flag_id", "post_flags", "flag"),
        ] {
            try db.execute(sql: """
                CREATE TABLE \(vocabulary) (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    name TEXT NOT NULL UNIQUE COLLATE NOCASE
                );
                CREATE TABLE \(link) (
                    post_id INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
                    \(column) INTEGER NOT NULL REFERENCES \(vocabulary)(id) ON DELETE CASCADE,
                    PRIMARY KEY (post_id, \(column))
                );
                CREATE INDEX \(link)_by_\(column) ON \(link)(\(column), post_id);
                INSERT OR IGNORE INTO \(vocabulary) (name) SELECT \(legacyColumn) FROM \(legacy) ORDER BY rowid;
                INSERT OR IGNORE INTO \(link) (post_id, \(column))
                    SELECT l.post_id, v.id FROM \(legacy) l JOIN \(vocabulary) v ON v.name = l.\(legacyColumn) ORDER BY l.rowid;
                DROP TABLE \(legacy);
                CREATE VIEW \(legacy) AS
                    SELECT l.post_id AS post_id, v.name AS \(legacyColumn)
                    FROM \(link) l JOIN \(vocabulary) v ON v.id = l.\(column)
                    ORDER BY l.rowid;
                """)
        }

        // Shuffle keys: existing posts get random ones here, new posts at insert. One partial
        // index per key column over ready posts only, because only ready posts are ever served.
        for column in 0..<FeedShuffleColumns.count {
            try db.execute(sql: "ALTER TABLE posts ADD COLUMN \(FeedShuffleColumns.name(column)) INTEGER NOT NULL DEFAULT 0")
        }
        let fill = (0..<FeedShuffleColumns.count)
            .map { "\(FeedShuffleColumns.name($0)) = (random() & 0x7FFFFFFFFFFFFFFF)" }
            .joined(separator: ", ")
        try db.execute(sql: "UPDATE posts SET \(fill)")
        for column in 0..<FeedShuffleColumns.count {
            let name = FeedShuffleColumns.name(column)
            try db.execute(sql: "CREATE INDEX \(FeedShuffleColumns.index(column)) ON posts(\(name), id) WHERE status = 'ready'")
        }

        try db.execute(sql: """
            -- name_key is the Unicode-lowercased, NFC name: uniqueness "ignoring case" must not
            -- depend on SQLite's ASCII-only NOCASE for accounts.
            CREATE TABLE users (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                name TEXT NOT NULL,
                name_key TEXT NOT NULL UNIQUE,
                role TEXT NOT NULL CHECK (role IN ('owner', 'member')),
                password_hash TEXT NOT NULL,
                created_at REAL NOT NULL
            );

            CREATE TABLE api_keys (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                name TEXT NOT NULL,
                key_hash TEXT NOT NULL UNIQUE,
                prefix TEXT NOT NULL,
                created_at REAL NOT NULL,
                last_used_at REAL,
                revoked_at REAL
            );
            CREATE INDEX api_keys_by_user ON api_keys(user_id);

            CREATE TABLE sessions (
                token_hash TEXT PRIMARY KEY,
                user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                created_at REAL NOT NULL,
                expires_at REAL NOT NULL
            ) WITHOUT ROWID;
            CREATE INDEX sessions_by_user ON sessions(user_id);
            CREATE INDEX sessions_by_expiry ON sessions(expires_at);

            -- One row per (user, post) the user touched; absent means ViewerState.none.
            CREATE TABLE post_user_state (
                user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                post_id INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
                favorited_at REAL,
                rating INTEGER NOT NULL DEFAULT 0 CHECK (rating BETWEEN 0 AND 5),
                position REAL,
                seen_at REAL,
                PRIMARY KEY (user_id, post_id)
            ) WITHOUT ROWID;
            CREATE INDEX post_user_state_by_post ON post_user_state(post_id);
            CREATE INDEX post_user_state_favorites ON post_user_state(user_id, favorited_at, post_id)
                WHERE favorited_at IS NOT NULL;
            """)
    }
}

/// Names of the shuffle key columns and their indexes, in one place for schema and queries.
enum FeedShuffleColumns {
    static let count = 8

    static func name(_ column: Int) -> String { "shuffle\(column)" }
    static func index(_ column: Int) -> String { "posts_ready_by_shuffle\(column)" }
}
