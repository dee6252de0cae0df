import Foundation
import ReelFeatures
import ReelKit
import ReelKitTestDoubles
import ReelModels
import ReelServer
import ReelStore
import ReelStoreSQLite
import ReelTestFiles
import ReelTestSupport
import Testing

/// Discover, Browse, grids and Favorites against the live server.
@Suite(.serialized) @MainActor struct CatalogModelTests {
    @Test func discoverShowsShelvesAndCollectionsOnceEach() async throws {
        try await withHarness(videos: 4) { harness in
            let ids = harness.server.videoIDs
            let collection = try await harness.client().createCollection(name: "Best of", postIDs: [ids[0], ids[1]])
            let model = DiscoverModel(context: try await harness.context())
            await model.load()
            #expect(model.content.value != nil && !model.shelves.isEmpty)
            #expect(model.collections.map(\.name) == ["Best of"] && model.collections.first?.count == 2)
            #expect(!model.shelves.map(\.id).contains("collection-\(collection.id)"), "a collection shows in its row, not again as a shelf")
            #expect(!model.showsLibraryPicker, "one library: no picker")
        }
    }

    @Test func aPostDeletedInTheAppLeavesEveryListAtOnce() async throws {
        try await withHarness(videos: 3) { harness in
            let context = try await harness.context()
            let discover = DiscoverModel(context: context)
            await discover.load()
            let id = try #require(discover.shelves.first?.items.first?.id)
            let favorites = GridModel(context: context, source: .favorites)
            _ = try await harness.client().setFavorite(true, videoID: id)
            await favorites.load()
            #expect(favorites.items.map(\.id) == [id])

            let detail = DetailModel(context: context, id: id)
            await detail.load()
            #expect(await detail.delete())
            #expect(!discover.shelves.flatMap(\.items).map(\.id).contains(id), "gone from Discover without a reload")
            #expect(favorites.items.isEmpty)
            let again = DetailModel(context: context, id: id)
            await again.load()
            #expect(again.isDeleted && again.content.error?.kind == .notFound)
        }
    }

    @Test func aSecondLibraryBringsThePickerAndScopesTheShelves() async throws {
        try await withHarness(videos: 2) { harness in
            let library = try await harness.client().createLibrary(name: "Travel")
            let model = DiscoverModel(context: try await harness.context())
            await model.load()
            #expect(model.showsLibraryPicker && model.libraries.map(\.name).contains("Travel"))
            await model.select(library: library.id)
            #expect(model.library == library.id && model.libraryName == "Travel")
            #expect(model.shelves.flatMap(\.items).isEmpty, "the new library has no posts yet")
            await model.select(library: nil)
            #expect(!model.shelves.isEmpty)
        }
    }

    @Test func browseSortsBothWaysAndFiltersByTag() async throws {
        try await withHarness(videos: 4) { harness in
            let ids = harness.server.videoIDs
            _ = try await harness.client().addTags(["kit"], videoID: ids[1])
            _ = try await harness.client().addTags(["kit"], videoID: ids[2])
            let model = BrowseModel(context: try await harness.context(), request: APIBrowseRequest(sort: .newest))
            await model.load()
            #expect(model.isDescending && model.items.map(\.id) == ids.reversed())
            await model.sort(by: .newest)
            #expect(!model.isDescending && model.items.map(\.id) == ids, "the same sort again flips it")
            #expect(model.tags.contains { $0.name == "kit" && $0.count == 2 })

            await model.toggleTag("kit")
            #expect(model.activeFilterCount == 1 && Set(model.items.map(\.id)) == [ids[1], ids[2]])
            await model.setFavoritesOnly(true)
            #expect(model.activeFilterCount == 2 && model.items.isEmpty && model.list.hasLoaded)
            await model.clearFilters()
            #expect(model.activeFilterCount == 0 && model.items.count == 4 && !model.isDescending, "the sort stays")
        }
    }

    @Test func aGridPagesThroughEveryPostOnce() async throws {
        try await withHarness(videos: 1, synthetic: 70) { harness in
            let model = BrowseModel(context: try await harness.context())
            await model.load()
            #expect(model.items.count == 30 && model.list.hasMore)
            while model.list.hasMore {
                let last = try #require(model.items.last?.id)
                await model.list.appeared(last)
            }
            #expect(model.items.count == 71 && Set(model.items.map(\.id)).count == 71)
        }
    }

    @Test func favoritesFollowTheHeartsAndARefreshThatFailsKeepsTheGrid() async throws {
        try await withHarness(videos: 3) { harness in
            let ids = harness.server.videoIDs
            let context = try await harness.context()
            let feed = FeedModel(context: context, slots: [])
            await feed.start()
            await feed.toggleLike(ids[0])
            await feed.toggleLike(ids[2])
            let favorites = GridModel(context: context, source: .favorites)
            await favorites.load()
            #expect(Set(favorites.items.map(\.id)) == [ids[0], ids[2]])

            await feed.toggleLike(ids[0])
            await favorites.dropUnfavorited()
            #expect(favorites.items.map(\.id) == [ids[2]])

            await harness.server.stop()
            await favorites.refresh()
            #expect(favorites.items.map(\.id) == [ids[2]] && favorites.list.error?.kind == .offline)
            try await harness.server.start()
            await favorites.refresh()
            #expect(favorites.items.map(\.id) == [ids[2]] && favorites.list.error == nil)
        }
    }

    @Test func aShelfAndACollectionOpenAsGridsWithTheirTitles() async throws {
        try await withHarness(videos: 3) { harness in
            let ids = harness.server.videoIDs
            let collection = try await harness.client().createCollection(name: "Road trip", postIDs: [ids[2], ids[0]])
            let context = try await harness.context()
            let grid = GridModel(context: context, source: .collection(collection.id))
            await grid.load()
            #expect(grid.title == "Road trip" && grid.items.map(\.id) == [ids[2], ids[0]])
            let discover = DiscoverModel(context: context)
            await discover.load()
            let shelf = try #require(discover.shelves.first)
            let shelfGrid = GridModel(context: context, source: .shelf(shelf.id))
            await shelfGrid.load()
            #expect(shelfGrid.title == shelf.title && !shelfGrid.items.isEmpty)
        }
    }
}
