import Foundation
import ReelModels

/// Finding posts again: Discover and its shelves, the All (A–Z) grid, search, collections.
/// Every listing takes `library` (an id from `libraries()`); nil means every library this
/// user may see.
extension ReelClient {
    /// The signed-in user with the server's resume rule (when a position is worth restoring).
    public func account() async throws(ReelAPIError) -> APIMe {
        try await json(APIMe.self, "GET", "/api/v1/me")
    }

    public func discover(library: Int64? = nil) async throws(ReelAPIError) -> APIDiscover {
        try await json(APIDiscover.self, "GET", "/api/v1/discover", query: [Self.libraryItem(library)])
    }

    /// One shelf as a full grid; pass the previous page's `nextCursor` to continue.
    public func shelf(id: String, cursor: String? = nil, limit: Int? = nil, library: Int64? = nil) async throws(ReelAPIError) -> APIShelf {
        try await json(APIShelf.self, "GET", "/api/v1/shelves/\(Self.pathComponent(id))", query: Self.paging(cursor, limit, library))
    }

    public func browse(
        _ request: APIBrowseRequest = APIBrowseRequest(), cursor: String? = nil, limit: Int? = nil, library: Int64? = nil
    ) async throws(ReelAPIError) -> APIFeedPage {
        try await json(APIFeedPage.self, "GET", "/api/v1/browse", query: request.queryItems + Self.paging(cursor, limit, library))
    }

    /// Full-text search (`tag:x`, `-tag:x`, `@uploader` and "phrases" work), best match first.
    public func search(_ text: String, cursor: String? = nil, limit: Int? = nil, library: Int64? = nil) async throws(ReelAPIError) -> APIFeedPage {
        try await json(APIFeedPage.self, "GET", "/api/v1/search", query: [URLQueryItem(name: "q", value: text)] + Self.paging(cursor, limit, library))
    }

    // MARK: Collections

    public func collections(library: Int64? = nil) async throws(ReelAPIError) -> [APICollection] {
        try await json(APICollectionList.self, "GET", "/api/v1/collections", query: [Self.libraryItem(library)]).collections
    }

    /// The collection and a page of its posts, in the collection's order.
    public func collection(id: Int64, cursor: String? = nil, limit: Int? = nil) async throws(ReelAPIError) -> APICollectionPage {
        try await json(APICollectionPage.self, "GET", "/api/v1/collections/\(id)", query: Self.paging(cursor, limit, nil))
    }

    /// Owners only.
    public func createCollection(name: String, postIDs: [Int64]? = nil) async throws(ReelAPIError) -> APICollection {
        try await json(APICollection.self, "POST", "/api/v1/collections", body: try encode(APICollectionCreateRequest(name: name, postIds: postIDs)))
    }

    /// Owners only: a new name, and/or every member in its new order.
    public func updateCollection(id: Int64, name: String? = nil, postIDs: [Int64]? = nil) async throws(ReelAPIError) -> APICollection {
        try await json(APICollection.self, "PUT", "/api/v1/collections/\(id)", body: try encode(APICollectionUpdateRequest(name: name, postIds: postIDs)))
    }

    /// Owners only: appended at the end (already in: unchanged).
    public func addToCollection(id: Int64, postID: Int64) async throws(ReelAPIError) -> APICollection {
        try await json(APICollection.self, "POST", "/api/v1/collections/\(id)/items", body: try encode(APICollectionItemRequest(postId: postID)))
    }

    public func removeFromCollection(id: Int64, postID: Int64) async throws(ReelAPIError) {
        _ = try await send("DELETE", "/api/v1/collections/\(id)/items/\(postID)")
    }

    public func deleteCollection(id: Int64) async throws(ReelAPIError) {
        _ = try await send("DELETE", "/api/v1/collections/\(id)")
    }

    static func libraryItem(_ library: Int64?) -> URLQueryItem {
        URLQueryItem(name: "library", value: library.map(String.init))
    }

    static func paging(_ cursor: String?, _ limit: Int?, _ library: Int64?) -> [URLQueryItem] {
        [URLQueryItem(name: "cursor", value: cursor), URLQueryItem(name: "limit", value: limit.map(String.init)), libraryItem(library)]
    }
}
