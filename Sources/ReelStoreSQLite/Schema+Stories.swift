import GRDB

extension Schema {
    /// v13: stories. A story item is a post (so import, transcode, media tokens and deletion
    /// are the ones posts have) plus a `story_items` row saying whose tray it is in and for how
    /// long. Published story posts have status `story`, which every listing already leaves out
    /// (they keep to `ready`); keeping a story as a post sets `kept` and makes it `ready`.
    ///
    /// - `author` is the person the tray shows: a server user's username, or the account name
    ///   of an archived (instaloader) or outside-catalogue story; `author_key` is it lowercased,
    ///   the grouping and lookup key. `user_id` is the server user who posted it, if one did.
    /// - `expires_at` NULL never expires (archived stories in a library that keeps them, kept
    ///   items). `expired` marks items the sweep took out of the tray (their post stays for the
    ///   owner's archive, or is deleted with its media when nothing keeps it).
    /// - `part`/`parts`: a video longer than 60 s is filed as several 60 s items of one source;
    ///   `trim_start`/`trim_duration` (seconds) tell the transcode which part of the source.
    /// - `story_views`: one row per viewer and item, `seen_at` when it was first shown (a new
    ///   item has no row, so its author's ring lights again), `liked_at` while liked.
    static func addStories(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE story_items (
                post_id INTEGER PRIMARY KEY REFERENCES posts(id) ON DELETE CASCADE,
                author TEXT NOT NULL,
                author_key TEXT NOT NULL,
                user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
                posted_at REAL NOT NULL,
                expires_at REAL,
                archived INTEGER NOT NULL DEFAULT 0,
                kept INTEGER NOT NULL DEFAULT 0,
                expired INTEGER NOT NULL DEFAULT 0,
                part INTEGER NOT NULL DEFAULT 0,
                parts INTEGER NOT NULL DEFAULT 1
            );
            CREATE INDEX story_items_by_author ON story_items(author_key, posted_at, post_id) WHERE expired = 0;
            CREATE INDEX story_items_expiring ON story_items(expires_at) WHERE expires_at IS NOT NULL AND expired = 0;
            CREATE INDEX story_items_by_user ON story_items(user_id, posted_at);

            CREATE TABLE story_views (
                user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                post_id INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
                seen_at REAL,
                liked_at REAL,
                PRIMARY KEY (user_id, post_id)
            ) WITHOUT ROWID;
            CREATE INDEX story_views_by_post ON story_views(post_id, seen_at);

            ALTER TABLE posts ADD COLUMN trim_start REAL;
            ALTER TABLE posts ADD COLUMN trim_duration REAL;
            ALTER TABLE libraries ADD COLUMN keep_archived_stories INTEGER NOT NULL DEFAULT 1;
            """)
    }
}

extension Schema {
    /// v14: the expiry sweep runs every minute and asks for the expired items it must delete;
    /// expired items that stay (kept, archived, an owner's archive) pile up for ever, so the
    /// question is answered from a partial index of only the rows waiting to go, which the
    /// sweep empties each round.
    static func addStorySweepIndex(_ db: Database) throws {
        try db.execute(sql: """
            CREATE INDEX story_items_to_delete ON story_items(post_id) WHERE expired = 1 AND kept = 0 AND archived = 0;
            """)
    }
}
