import GRDB

extension Schema {
    /// v17: For You's `LengthPrior` — judged views and long views per length bucket over the
    /// whole library, rebuilt with the neighbours by `recs.neighbors` (a few rows, read per page).
    static func addLengthPrior(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE length_prior (
                bucket INTEGER PRIMARY KEY,
                judged INTEGER NOT NULL,
                long_views INTEGER NOT NULL
            );
            """)
    }
}
