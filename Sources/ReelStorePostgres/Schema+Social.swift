extension Schema {
    /// What each user did with each post, and what they hid from their feeds (SQLite's
    /// `post_user_state` of v2/v9 and `hidden_posts`/`hidden_uploaders` of v15), plus
    /// `posts.uploader_key`: SQLite indexes a Swift function of (uploader, username); here the
    /// store writes the same function's value into a column (`UploaderKey.key`) when it writes
    /// either name.
    static let social = PostgresMigration(version: "p3_social_feed", statements: [
        """
        CREATE TABLE post_user_state (
            user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            post_id bigint NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
            favorited_at double precision,
            rating integer NOT NULL DEFAULT 0 CHECK (rating BETWEEN 0 AND 5),
            position double precision,
            seen_at double precision,
            position_at double precision,
            PRIMARY KEY (user_id, post_id)
        )
        """,
        "CREATE INDEX post_user_state_by_post ON post_user_state(post_id)",
        """
        CREATE INDEX post_user_state_favorites ON post_user_state(user_id, favorited_at, post_id)
            WHERE favorited_at IS NOT NULL
        """,
        "CREATE INDEX post_user_state_rated ON post_user_state(user_id, rating, post_id) WHERE rating > 0",
        """
        CREATE TABLE hidden_posts (
            user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            post_id bigint NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
            at double precision NOT NULL,
            PRIMARY KEY (user_id, post_id)
        )
        """,
        "CREATE INDEX hidden_posts_by_time ON hidden_posts(user_id, at)",
        """
        CREATE TABLE hidden_uploaders (
            user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            uploader_key text NOT NULL,
            uploader text NOT NULL,
            at double precision NOT NULL,
            PRIMARY KEY (user_id, uploader_key)
        )
        """,
        "ALTER TABLE posts ADD COLUMN uploader_key text",
        "CREATE INDEX posts_ready_by_uploader_key ON posts(uploader_key, id) WHERE status = 'ready'",
    ])
}
