import Foundation
import PostgresNIO
import ReelStore

extension PostgresStore: RecentSearchStore {
    public func recentSearches(userID: Int64) async throws -> [RecentSearch] {
        try await read { connection in
            try await connection.query("""
                SELECT query, searched_at FROM recent_searches WHERE user_id = \(userID)
                ORDER BY searched_at DESC, query_key LIMIT \(RecentSearchLimits.maxRecentSearches)
                """, logger: logger).collect().map { row in
                let (query, at) = try row.decode((String, Double).self)
                return RecentSearch(query: query, searchedAt: Date(timeIntervalSince1970: at))
            }
        }
    }

    public func recordSearch(userID: Int64, query: String, now: Date) async throws {
        let entry = try RecentSearchEntry(query)
        let (text, key) = (entry.text, entry.key)
        try await write { connection in
            // One writer per user at a time (nodes may record the same user's searches at once),
            // so "newest" below stays the newest until this commits.
            let user = try await connection.query("SELECT 1 FROM users WHERE id = \(userID) FOR UPDATE", logger: logger).collect()
            guard !user.isEmpty else { throw StoreError.conflict("no user \(userID)") }
            // A repeat never goes back in time, even if clocks disagree: it lands on top.
            let newest = try await connection.query(
                "SELECT max(searched_at) FROM recent_searches WHERE user_id = \(userID)", logger: logger
            ).collect().first?.decode(Double?.self)
            let at = RecentSearchEntry.time(now: now, newest: newest ?? nil)
            try await connection.query("""
                INSERT INTO recent_searches (user_id, query_key, query, searched_at) VALUES (\(userID), \(key), \(text), \(at))
                ON CONFLICT (user_id, query_key) DO UPDATE SET query = EXCLUDED.query, searched_at = EXCLUDED.searched_at
                """, logger: logger)
            try await connection.query("""
                DELETE FROM recent_searches WHERE user_id = \(userID) AND query_key NOT IN (
                    SELECT query_key FROM recent_searches WHERE user_id = \(userID)
                    ORDER BY searched_at DESC LIMIT \(RecentSearchLimits.maxRecentSearches))
                """, logger: logger)
        }
    }

    public func clearRecentSearches(userID: Int64) async throws {
        try await write { connection in
            _ = try await connection.query("DELETE FROM recent_searches WHERE user_id = \(userID)", logger: logger)
        }
    }
}
