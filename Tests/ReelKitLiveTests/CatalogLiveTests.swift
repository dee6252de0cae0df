import Foundation
import ReelKit
import ReelModels
import ReelTestSupport
import Testing

/// ReelKit's Discover, shelves, browse, search and collections against the real server.
@Suite(.serialized) struct CatalogLiveTests {
    static func title(_ item: APIVideo) -> String {
        PostTitle.title(description: item.description, shortcode: item.shortcode, folderName: item.folderName)
    }

    /// Every page of a listing, following `next` until it is nil (at most `pages`).
    static func all(pages: Int = 40, _ page: (String?) async throws -> (items: [APIVideo], next: String?)) async throws -> [APIVideo] {
        var items: [APIVideo] = [], cursor: String?, count = 0
        repeat {
            let result = try await page(cursor)
            items += result.items
            cursor = result.next
            count += 1
        } while cursor != nil && count < pages
        return items
    }

    @Test func browseEveryPostOnceInTitleOrderAndFiltered() async throws {
        try await withLiveServer(videos: 3, synthetic: 17) { server in
            let client = ReelClient(baseURL: server.baseURL, credentials: .apiKey(server.ownerKey))
            let byTitle = try await Self.all { cursor in
                let page = try await client.browse(cursor: cursor, limit: 6)
                return (page.items, page.nextCursor)
            }
            #expect(byTitle.count == server.postCount && Set(byTitle.map(\.id)).count == server.postCount)
            let keys = byTitle.map { TitleSortKey.key(for: Self.title($0)) }
            #expect(keys == keys.sorted(), "A–Z pages are in sort-key order across page boundaries")

            let live = try await client.browse(APIBrowseRequest(sort: .newest, tags: ["LIVE"], kinds: [.video]))
            #expect(Set(live.items.map(\.id)) == Set(server.videoIDs))
            _ = try await client.setFavorite(true, videoID: server.videoIDs[1])
            #expect(try await client.browse(APIBrowseRequest(favoritesOnly: true)).items.map(\.id) == [server.videoIDs[1]])
            let unseen = try await client.browse(APIBrowseRequest(tags: ["live"], seen: false))
            #expect(unseen.items.count == 3)
            try await client.markSeen(videoID: server.videoIDs[0])
            #expect(try await client.browse(APIBrowseRequest(tags: ["live"], seen: false)).items.count == 2)

            await #expect(throws: ReelAPIError.rejected(status: 400, code: "bad_request", message: "min_duration must not be more than max_duration")) {
                try await client.browse(APIBrowseRequest(minDuration: 10, maxDuration: 5))
            }
            #expect(try await client.search("tag:live").items.count == 3)
        }
    }

    @Test func discoverShelvesPageToTheirEndAndCollectionsKeepTheirOrder() async throws {
        try await withLiveServer(videos: 3, synthetic: 20) { server in
            let client = ReelClient(baseURL: server.baseURL, credentials: .apiKey(server.ownerKey))
            #expect(try await client.account().resume == APIResumeRule(minDuration: 60, minFraction: 0.05, maxFraction: 0.9))
            let discover = try await client.discover()
            let ids = discover.shelves.map(\.id)
            #expect(ids.first == "new" && !ids.contains("continue"), "Continue watching is left out while empty")
            #expect(discover.shelves.allSatisfy { !$0.items.isEmpty })

            let newest = try await Self.all { cursor in
                let shelf = try await client.shelf(id: "new", cursor: cursor, limit: 7)
                return (shelf.items, shelf.nextCursor)
            }
            #expect(newest.count == server.postCount && Set(newest.map(\.id)).count == server.postCount)
            await #expect(throws: ReelAPIError.self) { try await client.shelf(id: "no-such-shelf") }

            let (a, b, c) = (server.videoIDs[0], server.videoIDs[1], server.videoIDs[2])
            let trips = try await client.createCollection(name: "Trips", postIDs: [a, b])
            #expect(try await client.addToCollection(id: trips.id, postID: c).count == 3)
            #expect(try await client.collection(id: trips.id).items.map(\.id) == [a, b, c])
            let reordered = try await client.updateCollection(id: trips.id, name: "Road trips", postIDs: [c, a])
            #expect(reordered.name == "Road trips" && reordered.count == 2)
            #expect(try await client.collection(id: trips.id).items.map(\.id) == [c, a])
            let shelf = try #require(try await client.discover().shelves.first { $0.id == "collection-\(trips.id)" })
            #expect(shelf.title == "Road trips" && shelf.items.map(\.id) == [c, a])

            try await client.removeFromCollection(id: trips.id, postID: c)
            #expect(try await client.collection(id: trips.id).items.map(\.id) == [a])
            try await client.deleteCollection(id: trips.id)
            #expect(try await client.collections().isEmpty)
        }
    }
}
