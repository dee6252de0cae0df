import Foundation
import Observation
import ReelKit
import ReelModels

/// Browse (the All grid): a sort, a direction, and filters; every change starts the grid
/// over from its first page.
@Observable @MainActor
public final class BrowseModel {
    public private(set) var request: APIBrowseRequest
    public private(set) var list: PagedList<APIVideo>
    /// Every tag of the library with its count, for the filter sheet.
    public private(set) var tags: [APITagCount] = []
    private let context: FeatureContext
    private let library: Int64?

    public init(context: FeatureContext, request: APIBrowseRequest = APIBrowseRequest(), library: Int64? = nil) {
        self.context = context
        self.request = request
        self.library = library
        list = Self.list(context: context, request: request, library: library)
    }

    private static func list(context: FeatureContext, request: APIBrowseRequest, library: Int64?) -> PagedList<APIVideo> {
        let client = context.client
        return PagedList(context: context) { cursor throws(ReelAPIError) in
            let page = try await client.browse(request, cursor: cursor, limit: 30, library: library)
            return (page.items, page.nextCursor)
        }
    }

    public var items: [APIVideo] { list.items }
    public var isDescending: Bool { request.descending ?? request.sort.descendingByDefault }

    /// How many filters are on (the "Filters · 2" button).
    public var activeFilterCount: Int {
        [
            !request.tags.isEmpty, !request.excludeTags.isEmpty, !request.uploaders.isEmpty, !request.kinds.isEmpty,
            request.minDuration != nil || request.maxDuration != nil, request.favoritesOnly, request.minRating != nil, request.seen != nil,
        ].filter { $0 }.count
    }

    public func load() async {
        await list.start()
        if tags.isEmpty, let all = try? await context.client.tags() { tags = all }
    }

    /// Picking the sort that is on flips its direction; another sort starts in its own default.
    public func sort(by sort: BrowseSort) async {
        var next = request
        if next.sort == sort {
            next.descending = !isDescending
        } else {
            next.sort = sort
            next.descending = nil
        }
        await apply(next)
    }

    public func toggleTag(_ tag: String) async {
        var next = request
        if next.tags.contains(tag) { next.tags.removeAll { $0 == tag } } else { next.tags.append(tag) }
        await apply(next)
    }

    public func toggleKind(_ kind: PostKind) async {
        var next = request
        if next.kinds.contains(kind) { next.kinds.removeAll { $0 == kind } } else { next.kinds.append(kind) }
        await apply(next)
    }

    public func setFavoritesOnly(_ on: Bool) async {
        var next = request
        next.favoritesOnly = on
        await apply(next)
    }

    public func setMinRating(_ stars: Int?) async {
        var next = request
        next.minRating = stars.flatMap { (1...5).contains($0) ? $0 : nil }
        await apply(next)
    }

    public func setSeen(_ seen: Bool?) async {
        var next = request
        next.seen = seen
        await apply(next)
    }

    /// Keeps the sort, drops every filter.
    public func clearFilters() async {
        await apply(APIBrowseRequest(sort: request.sort, descending: request.descending))
    }

    public func apply(_ next: APIBrowseRequest) async {
        guard next != request else { return }
        request = next
        list = Self.list(context: context, request: next, library: library)
        await list.start()
    }
}
