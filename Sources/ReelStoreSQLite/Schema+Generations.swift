import GRDB

extension Schema {
    /// Generation jobs (prompt → clip). Kept apart from `jobs`, whose rows are about posts: a
    /// generation has no post until it is published, and its own poll/back-off state.
    static func addGenerations(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE generations (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                provider TEXT NOT NULL,
                prompt TEXT NOT NULL,
                style TEXT NOT NULL,
                seconds INTEGER NOT NULL,
                width INTEGER NOT NULL,
                height INTEGER NOT NULL,
                state TEXT NOT NULL,
                progress REAL NOT NULL DEFAULT 0,
                provider_job_id TEXT,
                failure_reason TEXT,
                attempts INTEGER NOT NULL DEFAULT 0,
                polls INTEGER NOT NULL DEFAULT 0,
                next_poll_at REAL NOT NULL,
                submitted_at REAL,
                lease_owner TEXT,
                lease_expires_at REAL,
                parent_id INTEGER REFERENCES generations(id) ON DELETE SET NULL,
                post_id INTEGER REFERENCES posts(id) ON DELETE SET NULL,
                created_at REAL NOT NULL,
                updated_at REAL NOT NULL
            );
            CREATE INDEX generations_by_user ON generations(user_id, created_at);
            CREATE INDEX generations_due ON generations(next_poll_at) WHERE state IN ('queued', 'running');
            """)
    }

    /// The look a post's transcode applies (`VideoFilter`); existing posts have none.
    static func addPostFilter(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE posts ADD COLUMN filter TEXT NOT NULL DEFAULT 'none'")
    }

    /// Uploads: who created a post (may cancel its jobs), whether its source is compressed
    /// before the ladder, and when a job's attempt started (for an ETA).
    static func addUploadColumns(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE posts ADD COLUMN created_by INTEGER REFERENCES users(id) ON DELETE SET NULL;
            ALTER TABLE posts ADD COLUMN preparation TEXT NOT NULL DEFAULT 'as_is';
            ALTER TABLE jobs ADD COLUMN started_at REAL;
            """)
    }
}
