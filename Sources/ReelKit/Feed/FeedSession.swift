import Foundation
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
    /// When each item last had its URLs refreshed: at most once a minute per item, so a
    /// server that keeps refusing cannot make us loop.
    private var refreshedAt: [Int64: Date] = [:]
    private let clock: any ReelClock
    public static var refreshInterval: TimeInterval { 60 }

    public init(
        client: ReelClient, pool: PlayerPool<Slot>, prefetcher: MediaPrefetcher? = nil, state: OptimisticState? = nil,
        query: FeedQuery = FeedQuery(), pageSize: Int = 10, configuration: FeedWindowConfiguration = FeedWindowConfiguration(),
        clock: any ReelClock = SystemClock()
    ) {
        self.clock = clock
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
                page = try await nextPage()
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

    /// The next page; a cursor the server refuses (its secret rotated) starts the feed again
    /// from a fresh first page, whose items the window's dedupe keeps from repeating.
    private func nextPage() async throws(ReelAPIError) -> APIFeedPage {
        do {
            return try await client.feed(cursor: cursor, limit: pageSize, query: query)
        } catch where error.isRefusedCursor && cursor != nil {
            cursor = nil
            return try await client.feed(cursor: nil, limit: pageSize, query: query)
        }
    }

    /// A player reports that one of `id`'s media requests failed with `error`. When the URL's
    /// signature is what failed (410 expired, 403 after a secret rotation), the item is fetched
    /// again and its fresh URLs handed to whichever slot shows it — a slot given the same item
    /// again continues at its position. Returns the refreshed item, or nil when the error is not
    /// about URLs or the item was refreshed less than a minute ago (the player then fails it).
    @discardableResult
    public func mediaFailed(_ id: Int64, error: ReelAPIError) async throws(ReelAPIError) -> APIVideo? {
        guard error.needsFreshURLs else { return nil }
        let now = clock.now()
        if let last = refreshedAt[id], now.timeIntervalSince(last) < Self.refreshInterval { return nil }
        refreshedAt[id] = now
        let fresh = try await client.video(id: id)
        videos[id] = fresh
        for (index, shown) in pool.contents.enumerated() where shown == id {
            pool.slots[index].load(fresh)
            if pool.activeSlot == index { pool.slots[index].play() }
        }
        return fresh
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
            prefetches[id] = Task { [weak self] in
                let report = await prefetcher.prefetch(video)
                guard report.needsFreshURLs, let self,
                      let fresh = try? await self.mediaFailed(id, error: .expired(message: "prefetch"))
                else { return }
                await prefetcher.prefetch(fresh)
            }
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
