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

/// A query as every store keeps it: trimmed, checked, and keyed by its lowercased canonical
/// form, so "Cats " and "cats" are one entry.
public struct RecentSearchEntry: Sendable, Equatable {
    public let text: String
    public let key: String

    public init(_ query: String) throws(StoreError) {
        let text = query.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty, text.count <= RecentSearchLimits.maxRecentSearchLength else {
            throw StoreError.invalid("a recent search is 1 to \(RecentSearchLimits.maxRecentSearchLength) characters, not blank")
        }
        self.text = text
        key = text.lowercased().precomposedStringWithCanonicalMapping
    }

    /// When it is recorded (seconds since 1970): `now`, or just after the person's newest search
    /// when this clock is behind it, so a repeat always lands on top.
    public static func time(now: Date, newest: Double?) -> Double {
        max(now.timeIntervalSince1970, newest.map { $0.nextUp } ?? -.infinity)
    }
}
