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

extension Schema {
    /// One queue for every kind of work: a job may name what it works on without a post
    /// (`subject`: a generation id, an upload id; one job per kind and subject, so recording
    /// the same work twice is a no-op), and may have a time limit over all its runs
    /// (`deadline_at`, from `time_limit` seconds) so polled work never stays active forever.
    /// The generations table's own lease and poll columns are no longer used.
    static func addJobSubjectsAndDeadlines(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE jobs ADD COLUMN subject TEXT;
            ALTER TABLE jobs ADD COLUMN time_limit REAL;
            ALTER TABLE jobs ADD COLUMN deadline_at REAL;
            CREATE UNIQUE INDEX jobs_by_subject ON jobs(kind, subject) WHERE subject IS NOT NULL;
            """)
    }
}
