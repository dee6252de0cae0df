import GRDB

/// The database schema as an ordered list of migrations. A migration, once released, is never
/// edited: later changes are new migrations appended below, so every existing library file can
/// be brought forward step by step.
///
/// Conventions: instants are REAL unix seconds (UTC); `date_posted` stays the ISO 8601 text the
/// sidecar gave, because it is shown, not computed with. Ids use AUTOINCREMENT so a deleted
/// post's id (its media folder name) or a deleted job's id (its work folder) is never reused.
enum Schema {
    /// Identifiers of every migration, oldest first. The last one is the current schema version.
    static let versions = ["v1_posts_jobs", "v2_accounts_social_feed", "v3_generations", "v4_post_filter", "v5_uploads", "v6_job_subjects", "v7_post_revisions", "v8_search", "v9_catalog", "v10_libraries", "v11_recent_searches", "v12_search_fields", "v13_stories", "v14_story_sweep", "v15_recommendations", "v16_for_you_indexes", "v17_length_prior"]

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1_posts_jobs", migrate: createPostsAndJobs)
        migrator.registerMigration("v2_accounts_social_feed", migrate: addAccountsSocialAndFeed)
        migrator.registerMigration("v3_generations", migrate: addGenerations)
        migrator.registerMigration("v4_post_filter", migrate: addPostFilter)
        migrator.registerMigration("v5_uploads", migrate: addUploadColumns)
        migrator.registerMigration("v6_job_subjects", migrate: addJobSubjectsAndDeadlines)
        migrator.registerMigration("v7_post_revisions", migrate: addPostRevisions)
        migrator.registerMigration("v8_search", migrate: addSearchIndex)
        migrator.registerMigration("v9_catalog", migrate: addCatalog)
        migrator.registerMigration("v10_libraries", migrate: addLibraries)
        migrator.registerMigration("v11_recent_searches", migrate: addRecentSearches)
        migrator.registerMigration("v12_search_fields", migrate: addSearchFields)
        migrator.registerMigration("v13_stories", migrate: addStories)
        migrator.registerMigration("v14_story_sweep", migrate: addStorySweepIndex)
        migrator.registerMigration("v15_recommendations", migrate: addRecommendations)
        migrator.registerMigration("v16_for_you_indexes", migrate: addForYouIndexes)
        migrator.registerMigration("v17_length_prior", migrate: addLengthPrior)
        return migrator
    }

    private static func createPostsAndJobs(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE posts (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                folder_name TEXT NOT NULL UNIQUE,
                kind TEXT NOT NULL,
                status TEXT NOT NULL,
                description TEXT,
                uploader TEXT,
                username TEXT,
                shortcode TEXT,
                date_posted TEXT,
                source_url TEXT,
                date_added REAL NOT NULL,
                content_hash TEXT NOT NULL UNIQUE,
                media_json TEXT,
                failure_reason TEXT,
                duration REAL,
                width INTEGER,
                height INTEGER
            );
            CREATE INDEX posts_by_status_and_date ON posts(status, date_added);
            CREATE INDEX posts_by_date ON posts(date_added);

            CREATE TABLE post_tags (
                post_id INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
                tag TEXT NOT NULL,
                PRIMARY KEY (post_id, tag)
            );
            CREATE INDEX post_tags_by_tag ON post_tags(tag, post_id);

            CREATE TABLE post_flags (
                post_id INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
                flag TEXT NOT NULL,
                PRIMARY KEY (post_id, flag)
            );

            CREATE TABLE post_sources (
                post_id INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
                position INTEGER NOT NULL,
                path TEXT NOT NULL,
                PRIMARY KEY (post_id, position)
            );

            -- Encryption keys live only here, never in the media tree.
            CREATE TABLE post_keys (
                post_id INTEGER PRIMARY KEY REFERENCES posts(id) ON DELETE CASCADE,
                key BLOB NOT NULL
            );

            -- A job belongs to its post: deleting the post (e.g. a failed post re-imported from
            -- scratch) deletes its jobs too, so the queue never holds work for a post that is gone.
            CREATE TABLE jobs (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                kind TEXT NOT NULL,
                post_id INTEGER REFERENCES posts(id) ON DELETE CASCADE,
                state TEXT NOT NULL CHECK (state IN ('queued', 'running', 'succeeded', 'failed')),
                attempts INTEGER NOT NULL DEFAULT 0,
                max_attempts INTEGER NOT NULL,
                progress REAL NOT NULL DEFAULT 0,
                last_error TEXT,
                lease_owner TEXT,
                lease_expires_at REAL,
                run_after REAL NOT NULL,
                created_at REAL NOT NULL,
                updated_at REAL NOT NULL
            );
            -- Claiming filters on state and kind, then on run_after / lease_expires_at, oldest first.
            CREATE INDEX jobs_for_claiming ON jobs(state, kind, created_at, id);
            CREATE INDEX jobs_by_post ON jobs(post_id);
            """)
    }
}
