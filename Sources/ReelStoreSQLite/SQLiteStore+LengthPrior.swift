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
                SELECT \(Self.lengthBucketSQL("p.duration")) AS bucket,
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
        var buckets = Array(repeating: LengthPrior.Bucket(judged: 0, longViews: 0), count: LengthPrior.bucketCount)
        for row in try Row.fetchAll(db.cachedStatement(sql: "SELECT bucket, judged, long_views FROM length_prior")) {
            let index: Int = row[0]
            guard buckets.indices.contains(index) else { continue }
            buckets[index] = LengthPrior.Bucket(judged: row[1], longViews: row[2])
        }
        return LengthPrior(buckets: buckets)
    }

    /// `LengthPrior.bucket(seconds:)` as SQL over a column: the index of the first edge the
    /// length does not exceed.
    static func lengthBucketSQL(_ column: String) -> String {
        let cases = LengthPrior.edges.enumerated().map { "WHEN \(column) <= \($0.element) THEN \($0.offset)" }
        return "CASE " + cases.joined(separator: " ") + " ELSE \(LengthPrior.edges.count) END"
    }
}
