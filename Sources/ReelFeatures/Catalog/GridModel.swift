import Foundation
import Observation
import ReelKit
import ReelModels

/// One grid of posts with a title: a Discover shelf in full, a collection, Favorites. Each
/// cell opens the detail; "Play in feed from here" opens the feed at that post.
@Observable @MainActor
public final class GridModel {
    public enum Source: Sendable, Equatable {
        case shelf(String)
        case collection(Int64)
        case favorites
    }

    public let source: Source
    public private(set) var title: String
    public let list: PagedList<APIVideo>
    private let context: FeatureContext

    public init(context: FeatureContext, source: Source) {
        self.context = context
        self.source = source
        let client = context.client
        switch source {
        case .favorites:
            title = "Favorites"
            list = PagedList(context: context) { cursor throws(ReelAPIError) in
                let page = try await client.favorites(cursor: cursor, limit: 24)
                return (page.items, page.nextCursor)
            }
        case .shelf(let id):
            title = id
            list = PagedList(context: context) { cursor throws(ReelAPIError) in
                let shelf = try await client.shelf(id: id, cursor: cursor, limit: 24)
                return (shelf.items, shelf.nextCursor)
            }
        case .collection(let id):
            title = "Collection"
            list = PagedList(context: context) { cursor throws(ReelAPIError) in
                let page = try await client.collection(id: id, cursor: cursor, limit: 24)
                return (page.items, page.nextCursor)
            }
        }
    }

    /// The posts to show. In Favorites, a heart taken away elsewhere (the feed, a detail)
    /// removes the post at once.
    public var items: [APIVideo] { list.items }

    public func load() async {
        await list.start()
        await settleTitle()
    }

    public func refresh() async {
        await list.refresh()
        await settleTitle()
    }

    /// Favorites follows the hearts: what was unliked since the page came is dropped.
    public func dropUnfavorited() async {
        guard source == .favorites else { return }
        for item in list.loaded {
            if let state = await context.postState.state(of: item.id), !state.isFavorited { list.remove(item.id) }
        }
    }

    private func settleTitle() async {
        switch source {
        case .favorites: return
        case .shelf(let id):
            if let shelf = try? await context.client.shelf(id: id, limit: 1) { title = shelf.title }
        case .collection(let id):
            if let page = try? await context.client.collection(id: id, limit: 1) { title = page.collection.name }
        }
    }
}
