import Foundation
import Observation
import ReelKit
import ReelModels

/// The feed screen: For You, Shuffle or Latest with optional filters, three players moved by
/// ReelKit's window as the person swipes, the next items prefetched, hearts and stars shown at
/// once and rolled back if the server refuses, an offline banner while changes wait, watch
/// events for For You, "not interested", and fresh media URLs when a signed URL stops working.
@Observable @MainActor
public final class FeedModel {
    /// nil: the server picks (For You once it knows enough, else Shuffle); `servedMode` says which.
    public private(set) var mode: FeedMode?
    public private(set) var servedMode: FeedMode?
    public private(set) var filter: FeedFilter
    /// The posts in swipe order, as far as they are loaded.
    public private(set) var items: [APIVideo] = []
    public private(set) var currentIndex = 0
    public private(set) var isLoading = false
    /// Set when the feed could not load at all (nothing to show); a failed next page keeps the
    /// items and only raises the banner.
    public private(set) var error: ScreenError?
    /// Shown as a banner: no connection, and how many changes wait for it.
    public private(set) var isOffline = false
    public private(set) var waitingChanges = 0
    /// A one-line message (a change the server refused, a post hidden); the view clears it.
    public var notice: String?
    public private(set) var postStates: [Int64: PostState] = [:]

    public let slots: [AnyPlayerSlot]
    private let context: FeatureContext
    private var session: FeedSession<AnyPlayerSlot>
    private let pageSize: Int

    public init(context: FeatureContext, slots: [AnyPlayerSlot], mode: FeedMode? = nil, filter: FeedFilter = FeedFilter(), pageSize: Int = 10) {
        self.context = context
        self.slots = slots
        self.mode = mode
        self.filter = filter
        self.pageSize = pageSize
        session = Self.session(context: context, slots: slots, mode: mode, filter: filter, pageSize: pageSize)
    }

    private static func session(context: FeatureContext, slots: [AnyPlayerSlot], mode: FeedMode?, filter: FeedFilter, pageSize: Int) -> FeedSession<AnyPlayerSlot> {
        FeedSession(
            client: context.client, pool: PlayerPool(slots: slots), prefetcher: context.prefetcher, state: context.postState,
            query: filter, mode: mode, events: context.events, pageSize: pageSize, clock: context.clock
        )
    }

    public var current: APIVideo? { session.current }
    /// Why For You chose the item on screen ("Because you liked …"); nil in other modes.
    public var currentReason: String? { current?.reason }
    /// The item each slot shows: the view puts slot i's player on the page of that item.
    public private(set) var slotContents: [Int64?] = []
    public func state(of id: Int64) -> PostState {
        postStates[id] ?? items.first { $0.id == id }.map { PostState(isFavorited: $0.isFavorited, rating: $0.rating) } ?? PostState()
    }

    // MARK: Loading

    /// The first page (once; `reload()` starts over).
    public func start() async {
        guard items.isEmpty, !isLoading else { return }
        await run { try await self.session.start() }
    }

    public func reload() async {
        rebuild()
        await start()
    }

    /// A different order: the feed starts over from its first page.
    public func select(mode: FeedMode?) async {
        guard mode != self.mode else { return }
        self.mode = mode
        await reload()
    }

    /// Filters (tags, kind, favorites only, minimum rating, library): the feed starts over.
    public func apply(filter: FeedFilter) async {
        guard filter != self.filter else { return }
        self.filter = filter
        await reload()
    }

    /// The person settled on item `index` (a flick still moving passes `settled: false`).
    public func move(to index: Int, settled: Bool = true) async {
        guard index != currentIndex || !settled, index >= 0, index < max(items.count, 1) else { return }
        await run { try await self.session.move(to: index, settled: settled) }
    }

    /// Comes back online (the banner's Retry, or the network path changing): sends the
    /// waiting changes and loads the feed if it had nothing.
    public func retry() async {
        await context.replayOffline()
        await refreshWaiting()
        if items.isEmpty { await reload() } else if session.window.hasMore, session.lastPlan?.requestNextPage ?? false { await move(to: currentIndex, settled: false) }
    }

    private func rebuild() {
        for slot in slots { slot.unload() }
        session = Self.session(context: context, slots: slots, mode: mode, filter: filter, pageSize: pageSize)
        items = []
        slotContents = session.pool.contents
        currentIndex = 0
        error = nil
    }

    private func run(_ work: () async throws -> Void) async {
        isLoading = true
        defer { isLoading = false; sync() }
        switch await context.attempt(work) {
        case .success:
            isOffline = waitingChanges > 0
            error = nil
        case .failure(let screen):
            isOffline = screen.isOffline
            if items.isEmpty || session.window.items.isEmpty { error = screen } else if !screen.isOffline { notice = screen.message }
        }
    }

    private func sync() {
        items = session.window.items.compactMap { session.videos[$0] }
        slotContents = session.pool.contents
        currentIndex = session.window.currentIndex
        servedMode = session.servedMode
    }

    // MARK: Hearts and stars

    public func toggleLike(_ id: Int64) async {
        await change(id) { $0.isFavorited.toggle() }
    }

    /// 0 clears; 1–5 stars.
    public func rate(_ id: Int64, stars: Int) async {
        await change(id) { $0.rating = stars }
    }

    /// Shows the change at once, then settles on what the server said: confirmed, waiting
    /// while offline (the banner counts it), or rolled back with a notice.
    private func change(_ id: Int64, _ edit: (inout PostState) -> Void) async {
        let before = state(of: id)
        var shown = before
        edit(&shown)
        postStates[id] = shown
        let outcome = await context.changePost(id, from: before, edit)
        postStates[id] = outcome.state
        if outcome.isWaiting { isOffline = true }
        if let refusal = outcome.refusal { notice = "Couldn't save that: \(refusal.message)" }
        await refreshWaiting()
    }

    private func refreshWaiting() async {
        waitingChanges = await context.postState.pending.count
        if waitingChanges == 0, isOffline, error == nil { isOffline = false }
    }

    // MARK: Not interested

    /// "Not interested": For You learns it, the post leaves the feed now and for good.
    public func notInterested(_ id: Int64) async {
        await hide(id, event: .notInterested, notice: "You won't see this post again. Undo in Profile.")
    }

    /// Hides every post by the item's uploader.
    public func hideUploader(of id: Int64) async {
        let name = items.first { $0.id == id }?.uploader ?? "this uploader"
        await hide(id, event: .hideUploader, notice: "Posts by \(name) are hidden. Undo in Profile.")
        for other in items where other.uploader != nil && other.uploader == name && other.id != id {
            await run { try await self.session.remove(other.id) }
        }
    }

    private func hide(_ id: Int64, event: EventType, notice: String) async {
        await context.events.record(event, postID: id)
        _ = await context.events.flush()
        await run { try await self.session.remove(id) }
        self.notice = notice
    }

    // MARK: Playback reports

    /// What the player measured for the item on screen (time played counting loops, loops).
    public func reportPlayback(watchedMs: Int, loops: Int) {
        session.reportPlayback(watchedMs: watchedMs, loops: loops)
    }

    /// A player's request for `id` failed: a 403/410 on a signed URL fetches the item again
    /// and hands its fresh URLs to the slot showing it. Returns whether it was refreshed.
    @discardableResult
    public func mediaFailed(_ id: Int64, error: ReelAPIError) async -> Bool {
        do throws(ReelAPIError) {
            guard let fresh = try await session.mediaFailed(id, error: error) else { return false }
            if let index = items.firstIndex(where: { $0.id == id }) { items[index] = fresh }
            return true
        } catch {
            let screen = context.failed(error)
            if screen.kind == .notFound { await run { try await self.session.remove(id) } }
            return false
        }
    }

    /// The app leaves the screen: the item on screen gets its view or skip, events are sent.
    public func enterBackground() async {
        for slot in slots { slot.pause() }
        await session.endWatching()
    }

    public func enterForeground() {
        session.resumeWatching()
        if let active = session.pool.activeSlot, slots.indices.contains(active), slotContents[active] != nil { slots[active].play() }
    }

    /// Waits for events and prefetches in flight (tests).
    public func settle() async {
        await session.eventsRecorded()
        await session.prefetchesFinished()
    }
}
