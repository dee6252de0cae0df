import Foundation
import Observation
import ReelKit
import ReelModels

/// A list the server hands out page by page (a grid, search results, favorites): the first
/// page, more as the person nears the end, pull-to-refresh, and a failure that keeps what was
/// already shown. Items deleted in this session are left out.
@Observable @MainActor
public final class PagedList<Item: Identifiable & Sendable> where Item.ID == Int64 {
    public typealias Page = (items: [Item], nextCursor: String?)

    public private(set) var loaded: [Item] = []
    public private(set) var isLoading = false
    public private(set) var hasMore = true
    public private(set) var error: ScreenError?
    /// True once a first page arrived (an empty list then means "nothing here", not "loading").
    public private(set) var hasLoaded = false
    private var cursor: String?
    /// Bumped by every refresh, so a late page of the previous list is dropped.
    private var generation = 0
    private let context: FeatureContext
    private let fetch: (String?) async throws(ReelAPIError) -> Page

    public init(context: FeatureContext, fetch: @escaping (String?) async throws(ReelAPIError) -> Page) {
        self.context = context
        self.fetch = fetch
    }

    public var items: [Item] { loaded.filter { !context.deletedPosts.contains($0.id) } }

    /// The first page, once.
    public func start() async {
        guard !hasLoaded, !isLoading else { return }
        await loadMore()
    }

    /// The next page; nothing at the end or while a page is loading.
    public func loadMore() async {
        await load(replacing: false)
    }

    private func load(replacing: Bool) async {
        guard hasMore, !isLoading else { return }
        isLoading = true
        let asked = generation
        defer { if asked == generation { isLoading = false } }
        do throws(ReelAPIError) {
            let page = try await fetch(cursor)
            guard asked == generation else { return }
            let kept = replacing ? [] : loaded
            let known = Set(kept.map(\.id))
            loaded = kept + page.items.filter { !known.contains($0.id) }
            cursor = page.nextCursor
            hasMore = page.nextCursor != nil
            hasLoaded = true
            error = nil
        } catch {
            guard asked == generation else { return }
            self.error = context.failed(error)
        }
    }

    /// Called as item `id` appears: the next page is asked for when it is among the last few.
    public func appeared(_ id: Int64) async {
        guard let index = loaded.firstIndex(where: { $0.id == id }), index >= loaded.count - 4 else { return }
        await loadMore()
    }

    /// Starts over from the first page; what was shown stays until the new page arrives.
    public func refresh() async {
        generation += 1
        cursor = nil
        hasMore = true
        isLoading = false
        await load(replacing: true)
    }

    /// Takes an item out at once (unfavorited, removed from a collection).
    public func remove(_ id: Int64) {
        loaded.removeAll { $0.id == id }
    }
}
