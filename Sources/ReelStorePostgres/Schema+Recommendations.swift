extension Schema {
    /// For You (docs/recommendations-api.md; SQLite's v15–v17 `watch_events`,
    /// `user_post_signals`, `user_affinities`, `post_popularity`, `post_neighbors` and
    /// `length_prior`, with the same meaning: see SQLite's `Schema+Recommendations.swift`).
    /// The hidden lists and `posts.uploader_key` with its index came with `p3_social_feed`.
    ///
    /// PostgreSQL idiom:
    /// - the client's event id is a `uuid` (16 bytes compared as SQLite compares its BLOB, so
    ///   both stores walk events of one instant in the same order);
    /// - `watch_events_by_user_time` ends in the event id: `positiveHistories` reads everyone's
    ///   events in (person, time, id) order straight off it, and `signalCount` stops early on it;
    /// - `post_popularity_by_score` ends in the post id, the tie-break the popular walk uses.
    static let recommendations = PostgresMigration(version: "p8_recommendations", statements: [
        """
        CREATE TABLE watch_events (
            user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            event_id uuid NOT NULL,
            post_id bigint NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
            type smallint NOT NULL,
            at double precision NOT NULL,
            watched_ms integer,
            duration_ms integer,
            loops integer,
            value integer,
            PRIMARY KEY (user_id, event_id)
        )
        """,
        "CREATE INDEX watch_events_by_time ON watch_events(at)",
        "CREATE INDEX watch_events_by_user_time ON watch_events(user_id, at, event_id)",
        "CREATE INDEX watch_events_by_post ON watch_events(post_id)",
        """
        CREATE TABLE user_post_signals (
            user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            post_id bigint NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
            seen_at double precision NOT NULL,
            watched_at double precision,
            impressions integer NOT NULL DEFAULT 0,
            views integer NOT NULL DEFAULT 0,
            long_views integer NOT NULL DEFAULT 0,
            skips integer NOT NULL DEFAULT 0,
            watched_ms bigint NOT NULL DEFAULT 0,
            label double precision NOT NULL DEFAULT 0,
            PRIMARY KEY (user_id, post_id)
        )
        """,
        "CREATE INDEX user_post_signals_by_seen ON user_post_signals(user_id, seen_at, post_id)",
        """
        CREATE INDEX user_post_signals_history ON user_post_signals(user_id, watched_at, post_id)
            WHERE watched_at IS NOT NULL
        """,
        "CREATE INDEX user_post_signals_by_post ON user_post_signals(post_id)",
        """
        CREATE TABLE user_affinities (
            user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            kind smallint NOT NULL,
            key text NOT NULL,
            score double precision NOT NULL,
            updated_at double precision NOT NULL,
            PRIMARY KEY (user_id, kind, key)
        )
        """,
        """
        CREATE TABLE post_popularity (
            post_id bigint PRIMARY KEY REFERENCES posts(id) ON DELETE CASCADE,
            log_score double precision NOT NULL,
            events bigint NOT NULL DEFAULT 0
        )
        """,
        "CREATE INDEX post_popularity_by_score ON post_popularity(log_score, post_id)",
        """
        CREATE TABLE post_neighbors (
            post_id bigint NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
            neighbor_id bigint NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
            score double precision NOT NULL,
            PRIMARY KEY (post_id, neighbor_id)
        )
        """,
        "CREATE INDEX post_neighbors_by_neighbor ON post_neighbors(neighbor_id)",
        """
        CREATE TABLE length_prior (
            bucket integer PRIMARY KEY,
            judged bigint NOT NULL,
            long_views bigint NOT NULL
        )
        """,
    ])
}
