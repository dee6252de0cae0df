import Foundation
import GRDB
import ReelStore

/// The evidence For You's length prior is made from: every person's judged views (views and
/// skips) and long views per post, from `user_post_signals`, summed by the post's length bucket.
extension SQLiteStore {
    public func rebuildLengthBuckets(edges: [Double]) async throws -> [LengthBucketCount] {
        // Counted in a read (a large signal table takes a moment; ingest must not wait on it),
        // replaced in a short write.
        let counts: [LengthBucketCount] = try await read { db in
            try Row.fetchAll(db, sql: """
                SELECT \(LengthBucketCount.bucketSQL("p.duration", edges: edges)) AS bucket,
                       SUM(s.views + s.skips), SUM(s.long_views)
                FROM user_post_signals s JOIN posts p ON p.id = s.post_id
                WHERE p.duration > 0 AND s.views + s.skips > 0
                GROUP BY bucket
                """).map { LengthBucketCount(bucket: $0[0], judged: $0[1], longViews: $0[2]) }
        }
        return try await write { db in
            try db.execute(sql: "DELETE FROM length_prior")
            let insert = try db.cachedStatement(sql: "INSERT INTO length_prior (bucket, judged, long_views) VALUES (?, ?, ?)")
            for count in counts {
                try insert.execute(arguments: [count.bucket, count.judged, count.longViews])
            }
            return try Self.lengthBuckets(db)
        }
    }

    /// The counts as the last rebuild left them (none before the first).
    static func lengthBuckets(_ db: Database) throws -> [LengthBucketCount] {
        try Row.fetchAll(db.cachedStatement(sql: "SELECT bucket, judged, long_views FROM length_prior ORDER BY bucket"))
            .map { LengthBucketCount(bucket: $0[0], judged: $0[1], longViews: $0[2]) }
    }
}
