import ReelModels

/// The glue an app's feed screen needs: pages from the server into a `FeedWindow`, its plans
/// onto a `PlayerPool`, media prefetch into the cache, server state into `OptimisticState`.
/// On the main actor with the players; pages are awaited, prefetch runs in the background.
@MainActor
public final class FeedSession<Slot: PlayerSlot> where Slot.Item == APIVideo {
    public let client: ReelClient
    public let pool: PlayerPool<Slot>
    public let prefetcher: MediaPrefetcher?
    public let state: OptimisticState?
    public let query: FeedQuery
    public let pageSize: Int
    public private(set) var window: FeedWindow<Int64>
    public private(set) var videos: [Int64: APIVideo] = [:]
    public private(set) var lastPlan: WindowPlan<Int64>?
    public private(set) var pagesLoaded = 0
    private var cursor: String?
    private var prefetches: [Int64: Task<Void, Never>] = [:]

    public init(
        client: ReelClient, pool: PlayerPool<Slot>, prefetcher: MediaPrefetcher? = nil, state: OptimisticState? = nil,
        query: FeedQuery = FeedQuery(), pageSize: Int = 10, configuration: FeedWindowConfiguration = FeedWindowConfiguration()
    ) {
        self.client = client
        self.pool = pool
        self.prefetcher = prefetcher
        self.state = state
        self.query = query
        self.pageSize = pageSize
        window = FeedWindow(configuration: FeedWindowConfiguration(
            poolSize: pool.slots.count, prefetchAhead: configuration.prefetchAhead, prefetchBehind: configuration.prefetchBehind,
            pageThreshold: configuration.pageThreshold, dedupeHorizon: configuration.dedupeHorizon
        ))
    }

    public var current: APIVideo? { window.current.flatMap { videos[$0] } }

    /// Loads the first page and fills the pool.
    public func start() async throws(ReelAPIError) {
        try await handle(window.start())
    }

    public func move(to index: Int, settled: Bool = true) async throws(ReelAPIError) {
        try await handle(window.move(to: index, settled: settled))
    }

    public func next() async throws(ReelAPIError) { try await move(to: window.currentIndex + 1) }
    public func previous() async throws(ReelAPIError) { try await move(to: window.currentIndex - 1) }

    public func remove(_ id: Int64) async throws(ReelAPIError) {
        try await handle(window.remove(id))
    }

    private func handle(_ first: WindowPlan<Int64>) async throws(ReelAPIError) {
        var plan = first
        var emptyPages = 0
        // Every plan is applied: each one's changes are relative to the one before.
        apply(plan)
        while plan.requestNextPage {
            let page: APIFeedPage
            do {
                page = try await client.feed(cursor: cursor, limit: pageSize, query: query)
            } catch {
                window.pageFailed()
                throw error
            }
            pagesLoaded += 1
            cursor = page.nextCursor
            for video in page.items { videos[video.id] = video }
            await state?.observe(page.items)
            let countBefore = window.items.count
            plan = window.append(page: page.items.map(\.id), hasMore: page.nextCursor != nil)
            apply(plan)
            // A server that keeps answering with nothing new must not spin us forever.
            emptyPages = window.items.count == countBefore ? emptyPages + 1 : 0
            if emptyPages >= 3 {
                window.pageFailed()
                break
            }
        }
        startPrefetches(plan)
    }

    /// Prefetch runs beside the UI: a move returns at once, items that left the list are
    /// cancelled, items still wanted keep downloading.
    private func startPrefetches(_ plan: WindowPlan<Int64>) {
        guard let prefetcher else { return }
        for (id, task) in prefetches where !plan.prefetch.contains(id) {
            // The item now on screen keeps downloading: its player is about to read it.
            if plan.cancelPrefetch.contains(id) { task.cancel() }
            prefetches[id] = nil
        }
        for id in plan.prefetch where prefetches[id] == nil {
            guard let video = videos[id] else { continue }
            prefetches[id] = Task { await prefetcher.prefetch(video) }
        }
    }

    /// Waits for the prefetches in flight (tests and the demo, to make runs repeatable).
    public func prefetchesFinished() async {
        for task in prefetches.values { await task.value }
    }

    private func apply(_ plan: WindowPlan<Int64>) {
        pool.apply(plan) { videos[$0] }
        lastPlan = plan
    }
}
