import Foundation
import PostgresNIO
import ReelStore

/// Rate limits in the shared database, so every API node counts the same login attempts:
/// fixed windows aligned to the clock (`floor(now / window) · window`), one upsert per event
/// that starts a new window or adds to the current one, and returns the count. Windows that
/// ended are swept now and then by whichever node happens to count (about one hit in 512),
/// and by `sweepRateLimits`. Each is one statement, atomic on its own, so it runs without
/// BEGIN/COMMIT around it (`read` is the store's "one connection, no transaction"): one round
/// trip per counted request instead of three.
extension PostgresStore: RateLimitStore {
    public func hit(key: String, limit: Int, window: TimeInterval, now: Date) async throws -> RateLimitDecision {
        let counted = try await add(key: key, count: 1, window: window, now: now)
        return counted.held > limit ? .refused(retryAfter: counted.secondsLeft) : .allowed
    }

    public func take(key: String, count: Int, limit: Int, window: TimeInterval, now: Date) async throws -> RateLimitDecision {
        let (start, end) = Self.window(window, now: now)
        let (count, limit) = (Int64(count), Int64(limit))
        // `held` is what the window already holds (nothing once it is a new window); the
        // batch is counted only when it fits whole, and the row says whether it did.
        let held = "CASE WHEN r.window_start = EXCLUDED.window_start THEN r.hits ELSE 0 END"
        let counted = try await read { connection in
            try await connection.query("""
                INSERT INTO rate_limits AS r (key, window_start, window_end, hits, counted)
                VALUES (\(key), \(start), \(end), CASE WHEN \(count) <= \(limit) THEN \(count) ELSE 0 END, \(count) <= \(limit))
                ON CONFLICT (key) DO UPDATE SET
                    hits = \(unescaped: held) + CASE WHEN \(unescaped: held) + \(count) <= \(limit) THEN \(count) ELSE 0 END,
                    counted = \(unescaped: held) + \(count) <= \(limit),
                    window_start = EXCLUDED.window_start, window_end = EXCLUDED.window_end
                RETURNING counted
                """, logger: logger).collect().first?.decode(Bool.self) ?? false
        }
        try await sweepSometimes(now: now)
        return counted ? .allowed : .refused(retryAfter: Self.secondsLeft(end, now: now))
    }

    public func add(key: String, count: Int, window: TimeInterval, now: Date) async throws -> RateLimitCount {
        let (start, end) = Self.window(window, now: now)
        let held = try await read { connection in
            try await connection.query("""
                INSERT INTO rate_limits AS r (key, window_start, window_end, hits) VALUES (\(key), \(start), \(end), \(Int64(count)))
                ON CONFLICT (key) DO UPDATE SET
                    hits = CASE WHEN r.window_start = EXCLUDED.window_start THEN r.hits + EXCLUDED.hits ELSE EXCLUDED.hits END,
                    window_start = EXCLUDED.window_start, window_end = EXCLUDED.window_end, counted = true
                RETURNING hits
                """, logger: logger).collect().first?.decode(Int64.self) ?? Int64(count)
        }
        try await sweepSometimes(now: now)
        return RateLimitCount(held: Int(held), secondsLeft: Self.secondsLeft(end, now: now))
    }

    public func reset(key: String) async throws {
        try await read { connection in
            _ = try await connection.query("DELETE FROM rate_limits WHERE key = \(key)", logger: logger)
        }
    }

    /// Deletes the windows that ended before `now`; returns how many.
    @discardableResult
    public func sweepRateLimits(now: Date) async throws -> Int {
        try await read { connection in
            let rows = try await connection.query(
                "WITH gone AS (DELETE FROM rate_limits WHERE window_end <= \(now.timeIntervalSince1970) RETURNING 1) SELECT count(*) FROM gone",
                logger: logger
            ).collect()
            return Int(try rows.first?.decode(Int64.self) ?? 0)
        }
    }

    private func sweepSometimes(now: Date) async throws {
        if UInt16.random(in: 0..<512) == 0 { try await sweepRateLimits(now: now) }
    }

    static func window(_ length: TimeInterval, now: Date) -> (start: Double, end: Double) {
        let length = max(1, length)
        let start = (now.timeIntervalSince1970 / length).rounded(.down) * length
        return (start, start + length)
    }

    static func secondsLeft(_ end: Double, now: Date) -> Int {
        max(1, Int((end - now.timeIntervalSince1970).rounded(.up)))
    }
}
