import Foundation
import GRDB
import ReelRank
import ReelStore

/// `LengthPrior`'s evidence: every person's judged views (views and skips) and long views per
/// post, from `user_post_signals`, summed by the post's length bucket.
extension SQLiteStore {
    public func rebuildLengthPrior() async throws -> LengthPrior {
        // Counted in a read (a large signal table takes a moment; ingest must not wait on it),
        // replaced in a short write.
        let counts: [(bucket: Int, judged: Int, longViews: Int)] = try await read { db in
            try Row.fetchAll(db, sql: """
                SELECT \(LengthPrior.bucketSQL("p.duration")) AS bucket,
                       SUM(s.views + s.skips), SUM(s.long_views)
                FROM user_post_signals s JOIN posts p ON p.id = s.post_id
                WHERE p.duration > 0 AND s.views + s.skips > 0
                GROUP BY bucket
                """).map { (bucket: $0[0], judged: $0[1], longViews: $0[2]) }
        }
        return try await write { db in
            try db.execute(sql: "DELETE FROM length_prior")
            let insert = try db.cachedStatement(sql: "INSERT INTO length_prior (bucket, judged, long_views) VALUES (?, ?, ?)")
            for count in counts {
                try insert.execute(arguments: [count.bucket, count.judged, count.longViews])
            }
            return try Self.lengthPrior(db)
        }
    }

    /// The prior as the last rebuild left it (neutral before the first).
    static func lengthPrior(_ db: Database) throws -> LengthPrior {
        LengthPrior(rows: try Row.fetchAll(db.cachedStatement(sql: "SELECT bucket, judged, long_views FROM length_prior"))
            .map { (bucket: $0[0], judged: $0[1], longViews: $0[2]) })
    }
}
