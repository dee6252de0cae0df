import Foundation
import Hummingbird
import HummingbirdCore
import ReelModels
import ReelStore
import Testing
@testable import ReelServer

/// ReelKit builds `GET /api/v1/browse` queries with `APIBrowseRequest`; the server must read
/// back exactly the request that was meant.
@Suite("Browse requests on the wire")
struct BrowseRequestWireTests {
    static func parsed(_ request: APIBrowseRequest) throws -> BrowseQuery {
        var components = URLComponents()
        components.path = "/api/v1/browse"
        components.queryItems = request.queryItems
        return try BrowseParameters.query(URI(components.string ?? "").queryParameters)
    }

    @Test func everyFieldSurvivesTheTrip() throws {
        let request = APIBrowseRequest(
            sort: .duration, descending: true, tags: ["cats", "sea side"], excludeTags: ["nsfw"], uploaders: ["Maker A", "@b"],
            kinds: [.video, .carousel], minDuration: 2.5, maxDuration: 90, favoritesOnly: true, minRating: 3, seen: false
        )
        let query = try Self.parsed(request)
        #expect(query.sort == .duration && query.descending)
        #expect(query.filter == CatalogFilter(
            tags: ["cats", "sea side"], excludeTags: ["nsfw"], uploaders: ["Maker A", "@b"], kinds: [.video, .carousel],
            minDuration: 2.5, maxDuration: 90, favoritesOnly: true, minRating: 3, seen: false
        ))
    }

    @Test func anEmptyRequestIsTheDefaultGrid() throws {
        #expect(try Self.parsed(APIBrowseRequest()) == BrowseQuery())
        #expect(try Self.parsed(APIBrowseRequest(sort: .newest)).descending, "newest is newest first unless asked otherwise")
        #expect(try Self.parsed(APIBrowseRequest(sort: .newest, descending: false)).descending == false)
        #expect(try Self.parsed(APIBrowseRequest(seen: true)).filter.seen == true)
    }
}
