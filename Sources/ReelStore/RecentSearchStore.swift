import Foundation

/// A search a person acted on, as they typed it.
public struct RecentSearch: Sendable, Equatable {
    public var query: String
    public var searchedAt: Date

    public init(query: String, searchedAt: Date) {
        self.query = query
        self.searchedAt = searchedAt
    }
}

/// Each user's recent searches: at most `maxRecentSearches`, newest first, one entry per
/// query (ignoring case and surrounding spaces; searching again moves it to the top).
public protocol RecentSearchStore: Sendable {
    func recentSearches(userID: Int64) async throws -> [RecentSearch]
    /// Records `query` (trimmed, not blank, at most `maxRecentSearchLength` characters) as
    /// searched at `now`, dropping the oldest beyond the limit.
    func recordSearch(userID: Int64, query: String, now: Date) async throws
    func clearRecentSearches(userID: Int64) async throws
}

public enum RecentSearchLimits {
    public static let maxRecentSearches = 20
    public static let maxRecentSearchLength = 2000
}
