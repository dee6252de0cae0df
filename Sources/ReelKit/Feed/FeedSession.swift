import Foundation
import ReelModels

/// The glue an app's feed screen needs: pages from the server into a `FeedWindow`, its plans
/// onto a `PlayerPool`, media prefetch into the cache, server state into `OptimisticState`.
/// On the main actor with the players; pages are awaited, prefetch runs in the background.
/// Given an `EventRecorder`, it records what the person watched: an impression when an item
/// becomes the current one, a view or skip when it leaves (`WatchTracker`).
@MainActor
public final class FeedSession<Slot: PlayerSlot> where Slot.Item == APIVideo {
    public let client: ReelClient
    public let pool: PlayerPool<Slot>
    public let prefetcher: MediaPrefetcher?
    public let state: OptimisticState?
    public let query: FeedQuery
    /// The order asked for; nil lets the server choose (`servedMode` says what it chose).
    public let mode: FeedMode?
    public private(set) var servedMode: FeedMode?
    public let events: EventRecorder?
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
    private var watch = WatchTracker()
    /// Events go to the recorder one after another, off the swipe's path (recording writes a
    /// file and may send a batch).
    private var recording: Task<Void, Never>?
    public static var refreshInterval: TimeInterval { 60 }

    public init(
        client: ReelClient, pool: PlayerPool<Slot>, prefetcher: MediaPrefetcher? = nil, state: OptimisticState? = nil,
        query: FeedQuery = FeedQuery(), mode: FeedMode? = nil, events: EventRecorder? = nil, pageSize: Int = 10,
        configuration: FeedWindowConfiguration = FeedWindowConfiguration(), clock: any ReelClock = SystemClock()
    ) {
        self.mode = mode
        self.events = events
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
        defer { trackCurrent() }
        try await handle(window.start())
    }

    /// While a flick is still moving (`settled: false`) the items passed are not impressions:
    /// only where it settles counts.
    public func move(to index: Int, settled: Bool = true) async throws(ReelAPIError) {
        // Even when the next page fails, the swipe itself happened.
        defer { if settled { trackCurrent() } }
        try await handle(window.move(to: index, settled: settled))
    }

    public func next() async throws(ReelAPIError) { try await move(to: window.currentIndex + 1) }
    public func previous() async throws(ReelAPIError) { try await move(to: window.currentIndex - 1) }

    public func remove(_ id: Int64) async throws(ReelAPIError) {
        defer { trackCurrent() }
        try await handle(window.remove(id))
    }

    // MARK: Watch events

    /// What the player measured for the item on screen (time played counting loops, loops);
    /// without it the view counts time on screen.
    public func reportPlayback(watchedMs: Int, loops: Int) {
        watch.playback(watchedMs: watchedMs, loops: loops)
    }

    /// The app goes to the background or the feed closes: the item on screen gets its view or
    /// skip, and everything recorded is sent. `resumeWatching()` counts it as shown again.
    public func endWatching() async {
        guard let events else { return }
        let leaving = watch.leave(at: clock.now())
        enqueue { if let leaving { await events.record(leaving) }; await events.flush() }
        await eventsRecorded()
    }

    public func resumeWatching() {
        trackCurrent()
    }

    /// Waits until every event so far reached the recorder (tests, and before a relaunch).
    public func eventsRecorded() async {
        await recording?.value
    }

    private func trackCurrent() {
        guard let events else { return }
        let id = window.current
        let changes = watch.show(id, durationSeconds: id.flatMap { videos[$0]?.duration }, at: clock.now())
        guard !changes.isEmpty else { return }
        enqueue { for event in changes { await events.record(event) } }
    }

    private func enqueue(_ work: @escaping @Sendable () async -> Void) {
        let previous = recording
        recording = Task {
            await previous?.value
            await work()
        }
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
        // What was watched so far goes before the page is chosen, so the page can reflect it.
        if let events {
            enqueue { await events.flush() }
            await eventsRecorded()
        }
        let page: APIFeedPage
        do {
            page = try await client.feedPage(mode: mode, cursor: cursor, limit: pageSize, query: query)
        } catch where error.isRefusedCursor && cursor != nil {
            cursor = nil
            page = try await client.feedPage(mode: mode, cursor: nil, limit: pageSize, query: query)
        }
        servedMode = page.mode ?? servedMode
        return page
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
