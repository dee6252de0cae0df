import GRDB

extension Schema {
    /// v15: For You (docs/recommendations-api.md).
    ///
    /// - `watch_events`: the raw log, compact (type as `EventType.code`, the client's UUID as 16
    ///   bytes, instants as unix seconds), kept for `eventRetentionDays` and read by the job that
    ///   recomputes neighbours. `(user_id, event_id)` makes a resent event count once.
    /// - `user_post_signals`: one row per person and post they were shown or watched — the seen
    ///   filter and the labels, updated in the same transaction as the event (the next page
    ///   already reflects it). `seen_at` is the last time the post was served to them or an event
    ///   named it; `watched_at` the last event other than an impression (NULL: only shown), which
    ///   is what history lists. `label` is the running preference label (ReelRank's weights:
    ///   long views, likes and good ratings positive, skips and "not interested" negative).
    /// - `user_affinities`: the profile's tag (`kind` 0, key = tag name) and uploader (`kind` 1,
    ///   key = the uploader key, see below) scores, decayed and updated on every event.
    /// - `post_popularity`: time-decayed popularity as one indexable number: `log_score` is
    ///   ln(Σ weight·e^(t/τ)), so ordering by it orders by the decayed score at any instant
    ///   (ReelRank.Popularity), and adding an event is one update.
    /// - `post_neighbors`: item-to-item neighbours (co-visitation) written by the recurring
    ///   `recs.neighbors` job, top K per post.
    /// - `hidden_posts` / `hidden_uploaders`: "not interested" and "hide this uploader", listed
    ///   and undoable in Profile; never served in any feed mode. The uploader key is the post's
    ///   `uploader`, else its `username`, lowercased and trimmed; `uploader` keeps it as shown.
    static func addRecommendations(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE watch_events (
                user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                event_id BLOB NOT NULL,
                post_id INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
                type INTEGER NOT NULL,
                at REAL NOT NULL,
                watched_ms INTEGER,
                duration_ms INTEGER,
                loops INTEGER,
                value INTEGER,
                PRIMARY KEY (user_id, event_id)
            ) WITHOUT ROWID;
            CREATE INDEX watch_events_by_time ON watch_events(at);
            CREATE INDEX watch_events_by_user_time ON watch_events(user_id, at);
            CREATE INDEX watch_events_by_post ON watch_events(post_id);

            CREATE TABLE user_post_signals (
                user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                post_id INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
                seen_at REAL NOT NULL,
                watched_at REAL,
                impressions INTEGER NOT NULL DEFAULT 0,
                views INTEGER NOT NULL DEFAULT 0,
                long_views INTEGER NOT NULL DEFAULT 0,
                skips INTEGER NOT NULL DEFAULT 0,
                watched_ms INTEGER NOT NULL DEFAULT 0,
                label REAL NOT NULL DEFAULT 0,
                PRIMARY KEY (user_id, post_id)
            ) WITHOUT ROWID;
            CREATE INDEX user_post_signals_by_seen ON user_post_signals(user_id, seen_at);
            CREATE INDEX user_post_signals_history ON user_post_signals(user_id, watched_at, post_id)
                WHERE watched_at IS NOT NULL;
            CREATE INDEX user_post_signals_by_post ON user_post_signals(post_id);

            CREATE TABLE user_affinities (
                user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                kind INTEGER NOT NULL,
                key TEXT NOT NULL,
                score REAL NOT NULL,
                updated_at REAL NOT NULL,
                PRIMARY KEY (user_id, kind, key)
            ) WITHOUT ROWID;

            CREATE TABLE post_popularity (
                post_id INTEGER PRIMARY KEY REFERENCES posts(id) ON DELETE CASCADE,
                log_score REAL NOT NULL,
                events INTEGER NOT NULL DEFAULT 0
            );
            CREATE INDEX post_popularity_by_score ON post_popularity(log_score);

            CREATE TABLE post_neighbors (
                post_id INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
                neighbor_id INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
                score REAL NOT NULL,
                PRIMARY KEY (post_id, neighbor_id)
            ) WITHOUT ROWID;
            CREATE INDEX post_neighbors_by_neighbor ON post_neighbors(neighbor_id);

            CREATE TABLE hidden_posts (
                user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                post_id INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
                at REAL NOT NULL,
                PRIMARY KEY (user_id, post_id)
            ) WITHOUT ROWID;
            CREATE INDEX hidden_posts_by_time ON hidden_posts(user_id, at);

            CREATE TABLE hidden_uploaders (
                user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                uploader_key TEXT NOT NULL,
                uploader TEXT NOT NULL,
                at REAL NOT NULL,
                PRIMARY KEY (user_id, uploader_key)
            ) WITHOUT ROWID;
            """)
    }
}
