extension Schema {
    /// Who saw and liked which story item (SQLite's v13 `story_views`): a row per viewer and
    /// item, `seen_at` when it was first shown, `liked_at` while liked.
    static let stories = PostgresMigration(version: "p5_story_views", statements: [
        """
        CREATE TABLE story_views (
            user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            post_id bigint NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
            seen_at double precision,
            liked_at double precision,
            PRIMARY KEY (user_id, post_id)
        )
        """,
        "CREATE INDEX story_views_by_post ON story_views(post_id, seen_at)",
    ])
}

extension Schema {
    /// `posts_by_date` ends in `id` as every listing's order does: on `date_added` alone the
    /// planner took it for the newest-first browse and sorted the ties of each page instead of
    /// walking `posts_ready_by_added` (found by the browse plan test).
    static let dateIndex = PostgresMigration(version: "p6_posts_by_date_and_id", statements: [
        "DROP INDEX posts_by_date",
        "CREATE INDEX posts_by_date ON posts(date_added, id)",
    ])
}
