extension Schema {
    /// Rate limits shared by every API node (`RateLimitStore`): one row per key and its current
    /// fixed window. UNLOGGED: counters of the last minutes are not worth a WAL write per
    /// request; a server crash empties them, which only forgives the attempts of one window.
    static let rateLimits = PostgresMigration(version: "p10_rate_limits", statements: [
        """
        CREATE UNLOGGED TABLE rate_limits (
            key text PRIMARY KEY,
            window_start double precision NOT NULL,
            window_end double precision NOT NULL,
            hits bigint NOT NULL,
            -- Whether the last `take` counted its batch (a refused one counts nothing).
            counted boolean NOT NULL DEFAULT true
        )
        """,
        "CREATE INDEX rate_limits_by_end ON rate_limits(window_end)",
    ])
}
