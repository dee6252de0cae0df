import GRDB

extension Schema {
    /// v10: libraries, separate sets of posts (e.g. "Family", "Work") that members are granted
    /// one by one; owners see every library.
    ///
    /// Every existing post moves into library 1, "Library", and every existing user is granted
    /// it. A trigger grants library 1 to each new user, for every writer of `users`, so an
    /// account made by any tool sees the default library the way accounts always did.
    /// `posts.library_id` has no REFERENCES clause because SQLite cannot add a column that
    /// references another table with a non-NULL default; the store checks a library exists
    /// before a post is put in it, and libraries are never deleted.
    static func addLibraries(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE libraries (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                name TEXT NOT NULL,
                name_key TEXT NOT NULL UNIQUE,
                created_at REAL NOT NULL
            );
            INSERT INTO libraries (id, name, name_key, created_at) VALUES (1, 'Library', 'library', CAST(strftime('%s', 'now') AS REAL));

            CREATE TABLE library_grants (
                user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                library_id INTEGER NOT NULL REFERENCES libraries(id) ON DELETE CASCADE,
                PRIMARY KEY (user_id, library_id)
            ) WITHOUT ROWID;
            CREATE INDEX library_grants_by_library ON library_grants(library_id, user_id);
            INSERT INTO library_grants (user_id, library_id) SELECT id, 1 FROM users;
            CREATE TRIGGER users_granted_default_library AFTER INSERT ON users
                BEGIN INSERT OR IGNORE INTO library_grants (user_id, library_id) VALUES (NEW.id, 1); END;

            ALTER TABLE posts ADD COLUMN library_id INTEGER NOT NULL DEFAULT 1;
            -- A listing scoped to a small library starts from its ready posts (see FeedQuery).
            CREATE INDEX posts_ready_by_library ON posts(library_id, id) WHERE status = 'ready';
            """)
    }
}
