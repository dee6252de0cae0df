import Foundation

/// `GET /api/v1/search`: a feed page plus the words the search looked for.
public struct APISearchPage: Codable, Sendable, Equatable {
    public var items: [APIVideo]
    public var nextCursor: String?
    /// The searched words folded as the index compares them (lowercase, no accents), for
    /// highlighting: a client marks where a folded field contains one of them.
    public var terms: [String]

    enum CodingKeys: String, CodingKey {
        case items
        case nextCursor = "next_cursor"
        case terms
    }

    public init(items: [APIVideo], nextCursor: String?, terms: [String]) {
        self.items = items
        self.nextCursor = nextCursor
        self.terms = terms
    }
}

/// One of `GET /api/v1/me/searches`.
public struct APIRecentSearch: Codable, Sendable, Equatable {
    public var query: String
    public var searchedAt: Date

    enum CodingKeys: String, CodingKey {
        case query
        case searchedAt = "searched_at"
    }

    public init(query: String, searchedAt: Date) {
        self.query = query
        self.searchedAt = searchedAt
    }
}

/// `GET /api/v1/me/searches`: newest first.
public struct APIRecentSearches: Codable, Sendable, Equatable {
    public var searches: [APIRecentSearch]

    public init(searches: [APIRecentSearch]) {
        self.searches = searches
    }
}

/// `POST /api/v1/me/searches`.
public struct APIRecentSearchRequest: Codable, Sendable, Equatable {
    public var query: String

    public init(query: String) {
        self.query = query
    }
}
