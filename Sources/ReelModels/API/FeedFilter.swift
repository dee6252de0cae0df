import Foundation

/// Which posts a feed shows: one type for the wire (`GET /api/v1/feed`'s query), the server's
/// parser, the store's query and ReelKit's requests. `favoritesOnly` and `minRating` are about
/// the viewing user.
public struct FeedFilter: Codable, Sendable, Equatable, Hashable {
    /// Any of these (ignoring case); empty means no tag constraint.
    public var tags: [String]
    /// None of these (ignoring case).
    public var excludeTags: [String]
    public var kind: PostKind?
    public var favoritesOnly: Bool
    /// Only posts the viewer rated at least this; nil or ≤ 0 means no constraint.
    public var minRating: Int?
    /// Only this library; nil means every library granted to the viewer.
    public var library: Int64?

    public init(
        tags: [String] = [], excludeTags: [String] = [], kind: PostKind? = nil, favoritesOnly: Bool = false, minRating: Int? = nil,
        library: Int64? = nil
    ) {
        self.library = library
        self.tags = tags
        self.excludeTags = excludeTags
        self.kind = kind
        self.favoritesOnly = favoritesOnly
        self.minRating = minRating
    }

    public static let all = FeedFilter()

    /// Limits that keep one request's query small.
    public static let maxTags = 20
    public static let maxTagLength = 64

    /// The query parameters, as the feed route reads them. Unset filters are left out.
    public var queryItems: [URLQueryItem] {
        [
            URLQueryItem(name: "tags", value: tags.isEmpty ? nil : tags.joined(separator: ",")),
            URLQueryItem(name: "exclude_tags", value: excludeTags.isEmpty ? nil : excludeTags.joined(separator: ",")),
            URLQueryItem(name: "kind", value: kind?.rawValue),
            URLQueryItem(name: "favorites", value: favoritesOnly ? "true" : nil),
            URLQueryItem(name: "min_rating", value: minRating.map(String.init)),
            URLQueryItem(name: "library", value: library.map(String.init)),
        ].filter { $0.value != nil }
    }

    /// Reads the filter from query parameters (`parameter(name)` returns a parameter's value).
    /// A value that makes no sense is refused with a sentence for the person who sent it.
    public init(parameter: (String) -> String?) throws(FeedFilterError) {
        self.init()
        tags = Self.list(parameter("tags"))
        excludeTags = Self.list(parameter("exclude_tags"))
        guard tags.count <= Self.maxTags, excludeTags.count <= Self.maxTags else {
            throw FeedFilterError("at most \(Self.maxTags) tags per filter")
        }
        if let text = parameter("kind"), !text.isEmpty {
            guard let parsed = PostKind(rawValue: text) else { throw FeedFilterError("kind must be one of video, image, carousel") }
            kind = parsed
        }
        if let text = parameter("favorites"), !text.isEmpty {
            switch text {
            case "true", "1": favoritesOnly = true
            case "false", "0": favoritesOnly = false
            default: throw FeedFilterError("favorites must be true or false")
            }
        }
        if let text = parameter("min_rating"), !text.isEmpty {
            guard let value = Int(text), (0...5).contains(value) else { throw FeedFilterError("min_rating must be an integer from 0 to 5") }
            minRating = value
        }
        library = try Self.library(parameter("library"))
    }

    /// The `library` parameter of every listing: absent, empty or a library id.
    public static func library(_ text: String?) throws(FeedFilterError) -> Int64? {
        guard let text, !text.isEmpty else { return nil }
        guard let id = Int64(text), id > 0 else { throw FeedFilterError("library must be a library id (a positive integer)") }
        return id
    }

    /// A comma-separated list: blanks trimmed, empty and over-long names dropped.
    static func list(_ value: String?) -> [String] {
        guard let value else { return [] }
        return value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && $0.count <= maxTagLength }
    }
}

/// A feed filter in a request that cannot be honoured; `message` says why.
public struct FeedFilterError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
