import Foundation

/// One Discover shelf, or `GET /api/v1/shelves/{id}`: a titled page of feed-style items.
public struct APIShelf: Codable, Sendable, Equatable, Identifiable {
    /// `continue`, `new`, `top_rated`, `most_favorited`, `unseen`, `tag-{id}`, `collection-{id}`.
    public var id: String
    public var title: String
    /// The shelf's kind: the fixed ids, or `tag` / `collection`.
    public var kind: String
    public var items: [APIVideo]
    public var nextCursor: String?

    enum CodingKeys: String, CodingKey {
        case id, title, kind, items
        case nextCursor = "next_cursor"
    }

    public init(id: String, title: String, kind: String, items: [APIVideo], nextCursor: String?) {
        self.id = id
        self.title = title
        self.kind = kind
        self.items = items
        self.nextCursor = nextCursor
    }
}

/// `GET /api/v1/discover`: the shelves in order, empty ones left out.
public struct APIDiscover: Codable, Sendable, Equatable {
    public var shelves: [APIShelf]

    public init(shelves: [APIShelf]) {
        self.shelves = shelves
    }
}

/// `GET /api/v1/collections/{id}`: the collection and a page of its posts in its order.
public struct APICollectionPage: Codable, Sendable, Equatable {
    public var collection: APICollection
    public var items: [APIVideo]
    public var nextCursor: String?

    enum CodingKeys: String, CodingKey {
        case items
        case nextCursor = "next_cursor"
    }

    public init(collection: APICollection, items: [APIVideo], nextCursor: String?) {
        self.collection = collection
        self.items = items
        self.nextCursor = nextCursor
    }

    /// One flat object on the wire: the collection's keys beside `items` and `next_cursor`.
    public init(from decoder: any Decoder) throws {
        collection = try APICollection(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        items = try container.decode([APIVideo].self, forKey: .items)
        nextCursor = try container.decodeIfPresent(String.self, forKey: .nextCursor)
    }

    public func encode(to encoder: any Encoder) throws {
        try collection.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(items, forKey: .items)
        try container.encode(nextCursor, forKey: .nextCursor)
    }
}

/// `GET /api/v1/browse`'s query as a client builds it: the order and the filters of the All
/// (A–Z) grid. The server parses the same parameter names (a test holds the two together).
public struct APIBrowseRequest: Sendable, Equatable, Hashable {
    public var sort: BrowseSort
    /// Nil: the sort's own default direction.
    public var descending: Bool?
    public var tags: [String]
    public var excludeTags: [String]
    /// Uploader or username, any of them.
    public var uploaders: [String]
    public var kinds: [PostKind]
    public var minDuration: Double?
    public var maxDuration: Double?
    public var favoritesOnly: Bool
    public var minRating: Int?
    /// Seen by the viewer (true) or not (false); nil: both.
    public var seen: Bool?

    public init(
        sort: BrowseSort = .title, descending: Bool? = nil, tags: [String] = [], excludeTags: [String] = [], uploaders: [String] = [],
        kinds: [PostKind] = [], minDuration: Double? = nil, maxDuration: Double? = nil, favoritesOnly: Bool = false,
        minRating: Int? = nil, seen: Bool? = nil
    ) {
        self.sort = sort
        self.descending = descending
        self.tags = tags
        self.excludeTags = excludeTags
        self.uploaders = uploaders
        self.kinds = kinds
        self.minDuration = minDuration
        self.maxDuration = maxDuration
        self.favoritesOnly = favoritesOnly
        self.minRating = minRating
        self.seen = seen
    }

    /// The query parameters; unset filters are left out.
    public var queryItems: [URLQueryItem] {
        func list(_ names: [String]) -> String? { names.isEmpty ? nil : names.joined(separator: ",") }
        func number(_ value: Double?) -> String? {
            value.map { $0 == $0.rounded() && abs($0) < 1e15 ? String(Int64($0)) : String($0) }
        }
        return [
            URLQueryItem(name: "sort", value: sort.rawValue),
            URLQueryItem(name: "order", value: descending.map { $0 ? "desc" : "asc" }),
            URLQueryItem(name: "tags", value: list(tags)),
            URLQueryItem(name: "exclude_tags", value: list(excludeTags)),
            URLQueryItem(name: "uploader", value: list(uploaders)),
            URLQueryItem(name: "kind", value: list(kinds.map(\.rawValue))),
            URLQueryItem(name: "min_duration", value: number(minDuration)),
            URLQueryItem(name: "max_duration", value: number(maxDuration)),
            URLQueryItem(name: "favorites", value: favoritesOnly ? "true" : nil),
            URLQueryItem(name: "min_rating", value: minRating.map(String.init)),
            URLQueryItem(name: "seen", value: seen.map { $0 ? "true" : "false" }),
        ].filter { $0.value != nil }
    }
}
