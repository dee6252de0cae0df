import Foundation
import GRDB
import ReelStore

extension SQLiteStore: RecentSearchStore {
    public func recentSearches(userID: Int64) async throws -> [RecentSearch] {
        try await read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT query, searched_at FROM recent_searches WHERE user_id = ? ORDER BY searched_at DESC, query_key LIMIT ?",
                arguments: [userID, RecentSearchLimits.maxRecentSearches]
            ).map { RecentSearch(query: $0["query"], searchedAt: RowDecoding.date($0["searched_at"])) }
        }
    }

    public func recordSearch(userID: Int64, query: String, now: Date) async throws {
        let entry = try RecentSearchEntry(query)
        let (text, key) = (entry.text, entry.key)
        try await write { db in
            // A repeat never goes back in time, even if clocks disagree: it lands on top.
            let newest = try Double.fetchOne(db, sql: "SELECT max(searched_at) FROM recent_searches WHERE user_id = ?", arguments: [userID])
            let at = RecentSearchEntry.time(now: now, newest: newest)
            try db.execute(
                sql: """
                    INSERT INTO recent_searches (user_id, query_key, query, searched_at) VALUES (?, ?, ?, ?)
                    ON CONFLICT (user_id, query_key) DO UPDATE SET query = excluded.query, searched_at = excluded.searched_at
                    """,
                arguments: [userID, key, text, at]
            )
            try db.execute(
                sql: """
                    DELETE FROM recent_searches WHERE user_id = ? AND query_key NOT IN (
                        SELECT query_key FROM recent_searches WHERE user_id = ? ORDER BY searched_at DESC LIMIT ?)
                    """,
                arguments: [userID, userID, RecentSearchLimits.maxRecentSearches]
            )
        }
    }

    public func clearRecentSearches(userID: Int64) async throws {
        try await write { db in
            try db.execute(sql: "DELETE FROM recent_searches WHERE user_id = ?", arguments: [userID])
        }
    }
}
