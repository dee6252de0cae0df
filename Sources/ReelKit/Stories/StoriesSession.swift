import Foundation
import ReelModels

/// The glue an app's stories screens need: the tray paged from the server, a `StoryPlayer`
/// over the people from the one tapped onward (their items fetched as the viewer gets near
/// them), seen items batched through a durable queue, hearts through `OptimisticState`, and the
/// next item's and next person's first frames prefetched into the cache.
///
/// On the main actor with the UI, like `FeedSession`. No timers inside: the UI calls `tick()`
/// from its display link, and every time is read from the injected clock. Each item opens
/// paused (`.buffering`) until the UI reports its first frame (`firstFrameShown`), so a photo
/// still decoding or a video still loading does not use up its time.
@MainActor
public final class StoriesSession {
    public let client: ReelClient
    public let state: OptimisticState?
    public let prefetcher: MediaPrefetcher?
    public let seenDelivery: StorySeenDelivery?
    public let pageSize: Int
    private let clock: any ReelClock

    // MARK: Tray
    public private(set) var tray = StoryTrayList()
    public private(set) var hasMoreTray = true
    private var trayCursor: String?
    private var trayLoading = false

    // MARK: Player
    public private(set) var player: StoryPlayer?
    /// The people the open player runs through: the one tapped and everyone after them.
    public private(set) var lineup: [String] = []
    /// How many people of `lineup` have been asked for (their pages loaded, or skipped).
    private var lineupLoaded = 0
    private var pages: [String: APIStoryUserPage] = [:]
    private var items: [Int64: APIStoryItem] = [:]
    private var authors: [Int64: String] = [:]
    private var loadingAhead: Task<Void, Never>?
    /// When each person's page was last fetched again for fresh media URLs: at most once a
    /// minute, so a server that keeps refusing cannot make us loop.
    private var refreshedAt: [String: Date] = [:]
    /// Which open the people loading ahead belong to (a late task of a closed player must not
    /// touch the next one).
    private var opening = 0
    private var seenBuffer: StorySeenBuffer
    private var recordedSeen: Set<Int64> = []

    // MARK: Background work
    /// The items being prefetched now: the next item and the next person's first item.
    public private(set) var prefetchTargets: [Int64] = []
    private var prefetches: [Int64: Task<Void, Never>] = [:]
    private var deliveries: [Task<Void, Never>] = []

    public init(
        client: ReelClient, state: OptimisticState? = nil, prefetcher: MediaPrefetcher? = nil, seenDelivery: StorySeenDelivery? = nil,
        seenPolicy: StorySeenPolicy = StorySeenPolicy(), pageSize: Int = 20, clock: any ReelClock = SystemClock()
    ) {
        self.client = client
        self.state = state
        self.prefetcher = prefetcher
        self.seenDelivery = seenDelivery
        self.pageSize = pageSize
        self.clock = clock
        seenBuffer = StorySeenBuffer(policy: seenPolicy)
    }

    // MARK: - Tray

    /// The tray's next page (the first one on the first call). Does nothing at the end or while
    /// a page is loading.
    public func loadMore() async throws(ReelAPIError) {
        guard hasMoreTray, !trayLoading else { return }
        trayLoading = true
        defer { trayLoading = false }
        let page: APIStoryTray
        do {
            page = try await client.storyTray(cursor: trayCursor, limit: pageSize)
        } catch where error.isRefusedCursor && trayCursor != nil {
            // The server's secret rotated: start over; the list drops people already shown.
            page = try await client.storyTray(cursor: nil, limit: pageSize)
        }
        tray.append(page.tray)
        trayCursor = page.nextCursor
        hasMoreTray = page.nextCursor != nil
    }

    /// Pull-to-refresh: the first page again, in front; new people appear, nobody twice.
    /// Returns the people who are new.
    @discardableResult
    public func refresh() async throws(ReelAPIError) -> [String] {
        let wasEmpty = tray.entries.isEmpty
        let page = try await client.storyTray(cursor: nil, limit: pageSize)
        let added = tray.refresh(with: page.tray)
        if wasEmpty {
            trayCursor = page.nextCursor
            hasMoreTray = page.nextCursor != nil
        }
        return added
    }

    // MARK: - Opening and closing

    /// Opens the player at `user`: fetches their items (and the next person's, so auto-advance
    /// and prefetch have them), starting at their first unseen item.
    public func open(user: String) async throws(ReelAPIError) {
        if player != nil { close() }
        opening += 1
        let start = tray.index(of: user)
        lineup = start.map { tray.entries[$0...].map(\.user) } ?? [user]
        lineupLoaded = 1
        let page: APIStoryUserPage
        do {
            page = try await client.stories(of: user)
        } catch {
            if case .notFound = error { tray.remove(user: user) }
            throw error
        }
        let seen = await take(page)
        player = StoryPlayer(users: [Self.storyUser(page)], alreadySeen: seen, waitForFirstFrame: true, now: clock.now())
        startLoadingAhead()
        await loadingAhead?.value
    }

    /// Swipe down, Esc, or the app going away: the player stops and seen items are sent.
    public func close() {
        guard var current = player else { return }
        _ = current.dismiss(at: clock.now())
        player = current
        loadingAhead?.cancel()
        loadingAhead = nil
        for task in prefetches.values { task.cancel() }
        prefetches = [:]
        prefetchTargets = []
        flushSeen()
        player = nil
    }

    /// The item on screen; nil once the player finished or closed.
    public var currentItem: APIStoryItem? {
        guard let player, !player.isFinished, !player.isDismissed else { return nil }
        return player.currentSegment.flatMap { Int64($0.id) }.flatMap { items[$0] }
    }

    public var currentUser: String? { player?.currentUser?.id }

    public func item(_ id: Int64) -> APIStoryItem? { items[id] }

    // MARK: - Driving the player

    /// The display link's call: moves progress to now, sends seen items that waited long enough.
    @discardableResult
    public func tick() -> [StoryEvent] {
        let now = clock.now()
        let events = drive { $0.tick(at: now) }
        if seenBuffer.isDue(at: now) { flushSeen() }
        return events
    }

    @discardableResult public func tapRight() -> [StoryEvent] { let now = clock.now(); return drive { $0.tapRight(at: now) } }
    @discardableResult public func tapLeft() -> [StoryEvent] { let now = clock.now(); return drive { $0.tapLeft(at: now) } }
    @discardableResult public func nextUser() -> [StoryEvent] { let now = clock.now(); return drive { $0.nextUser(at: now) } }
    @discardableResult public func previousUser() -> [StoryEvent] { let now = clock.now(); return drive { $0.previousUser(at: now) } }

    /// Hold ≥ 200 ms (the UI decides when a touch is a hold) pauses; release resumes.
    public func holdBegan() { let now = clock.now(); _ = drive { $0.pause(.longPress, at: now); return [] } }
    public func holdEnded() { let now = clock.now(); _ = drive { $0.resume(.longPress, at: now); return [] } }

    /// The player view stalled (true) or plays again (false) after its first frame.
    public func setBuffering(_ buffering: Bool) {
        let now = clock.now()
        _ = drive {
            if buffering { $0.pause(.buffering, at: now) } else { $0.resume(.buffering, at: now) }
            return []
        }
    }

    /// The app left the screen (true) or came back (false): the item's time stops meanwhile,
    /// apart from a hold the person may still be making.
    public func setBackground(_ background: Bool) {
        let now = clock.now()
        _ = drive {
            if background { $0.pause(.background, at: now) } else { $0.resume(.background, at: now) }
            return []
        }
    }

    /// The UI shows `itemID`'s first frame (photo decoded, video playing): its time starts and
    /// it counts as seen. A late report for an item no longer on screen changes nothing.
    public func firstFrameShown(itemID: Int64) {
        guard var current = player, current.firstFrameShown(segment: String(itemID), at: clock.now()) else { return }
        player = current
        recordSeen(itemID)
    }

    private func drive(_ change: (inout StoryPlayer) -> [StoryEvent]) -> [StoryEvent] {
        guard var current = player else { return [] }
        let events = change(&current)
        player = current
        handle(events)
        return events
    }

    private func handle(_ events: [StoryEvent]) {
        guard !events.isEmpty else { return }
        for event in events {
            switch event {
            case .userChanged:
                startLoadingAhead()
            case .finished, .dismissed:
                flushSeen()
            case .segmentStarted:
                break
            }
        }
        updatePrefetches()
    }

    // MARK: - Likes

    /// The heart on the current item, optimistic: shown at once, rolled back if refused,
    /// queued while offline. Nil without an item or an `OptimisticState`.
    @discardableResult
    public func toggleLike() async -> MutationEvent? {
        guard let state, let item = currentItem else { return nil }
        return await state.toggleStoryLike(itemID: item.id)
    }

    /// What the heart shows: the optimistic state when there is one, else the server's.
    public func isLiked(_ itemID: Int64) async -> Bool {
        if let shown = await state?.state(of: itemID) { return shown.isStoryLiked }
        return items[itemID]?.liked ?? false
    }

    // MARK: - Seen

    private func recordSeen(_ id: Int64) {
        guard let item = items[id], !item.seen, recordedSeen.insert(id).inserted else { return }
        items[id]?.seen = true
        if let author = authors[id], let page = pages[StoryTrayList.key(author)] {
            let seenCount = page.items.firstIndex { !(items[$0.id]?.seen ?? false) } ?? page.items.count
            tray.update(user: author, itemsCount: page.items.count, firstUnseen: seenCount)
        }
        if seenBuffer.add(id, at: clock.now()) { flushSeen() }
    }

    private func flushSeen() {
        let ids = seenBuffer.take()
        guard !ids.isEmpty, let seenDelivery else { return }
        deliveries.append(Task { _ = await seenDelivery.deliver(ids) })
    }

    /// Sends seen items left queued from an earlier offline session (call at launch and when
    /// the network comes back), and queued hearts with them.
    @discardableResult
    public func replay() async -> StorySeenDelivery.Outcome {
        await state?.replay()
        return await seenDelivery?.replay() ?? .nothingToSend
    }

    // MARK: - People ahead

    /// Keeps a person's page; returns the ids of their items already seen (as the player names
    /// segments), counting those seen here whose mark has not reached the server yet.
    private func take(_ page: APIStoryUserPage) async -> Set<String> {
        pages[StoryTrayList.key(page.user)] = page
        var seen = Set<String>()
        for item in page.items {
            var item = item
            if recordedSeen.contains(item.id) { item.seen = true }
            if item.seen { seen.insert(String(item.id)) }
            items[item.id] = item
            authors[item.id] = page.user
        }
        await state?.observe(stories: page.items)
        return seen
    }

    private func startLoadingAhead() {
        guard loadingAhead == nil else { return }
        let opening = opening
        loadingAhead = Task { [weak self] in
            await self?.loadAhead(for: opening)
            guard let self, self.opening == opening else { return }
            self.loadingAhead = nil
            self.updatePrefetches()
        }
    }

    /// Makes sure the person after the current one is in the player: fetches the next people
    /// of the lineup (skipping anyone whose stories are gone), and the tray's next page when
    /// the lineup runs out.
    private func loadAhead(for opening: Int) async {
        while self.opening == opening, let current = player, !current.isFinished, !current.isDismissed, current.users.count < current.userIndex + 2 {
            if lineupLoaded >= lineup.count {
                guard hasMoreTray, let last = lineup.last, (try? await loadMore()) != nil, self.opening == opening,
                      let index = tray.index(of: last), index + 1 < tray.entries.count
                else { return }
                lineup += tray.entries[(index + 1)...].map(\.user)
            }
            let user = lineup[lineupLoaded]
            do {
                let page = try await client.stories(of: user)
                guard self.opening == opening else { return }
                lineupLoaded += 1
                let seen = await take(page)
                player?.append([Self.storyUser(page)], alreadySeen: seen)
            } catch {
                // Offline: tried again when the viewer moves on to the next person.
                guard case .notFound = error, self.opening == opening else { return }
                lineupLoaded += 1
                tray.remove(user: user)
            }
        }
    }

    static func storyUser(_ page: APIStoryUserPage) -> StoryUser {
        StoryUser(id: page.user, segments: page.items.map { StorySegment(id: String($0.id), duration: $0.duration) })
    }

    // MARK: - Media

    /// A player (or a prefetch) found `itemID`'s media refused because of its signature (410
    /// expired, 403 after the server's secret rotated): the person's page is fetched again and
    /// the item with fresh URLs returned, for the player to load. Nil when the error is not
    /// about URLs or that page was fetched again less than a minute ago (the player then fails
    /// the item).
    @discardableResult
    public func mediaFailed(_ itemID: Int64, error: ReelAPIError) async throws(ReelAPIError) -> APIStoryItem? {
        guard error.needsFreshURLs, let author = authors[itemID] else { return nil }
        let key = StoryTrayList.key(author)
        let now = clock.now()
        if let last = refreshedAt[key], now.timeIntervalSince(last) < 60 { return nil }
        refreshedAt[key] = now
        _ = await take(try await client.stories(of: author))
        return items[itemID]
    }

    // MARK: - Prefetch

    /// The next item, and the item the next person would start at.
    func nextTargets() -> [Int64] {
        guard let player, !player.isFinished, !player.isDismissed, let user = player.currentUser else { return [] }
        var segments: [StorySegment] = []
        if player.segmentIndex + 1 < user.segments.count { segments.append(user.segments[player.segmentIndex + 1]) }
        if player.users.indices.contains(player.userIndex + 1) {
            let next = player.users[player.userIndex + 1].segments
            if let start = next.first(where: { !player.seen.contains($0.id) }) ?? next.first { segments.append(start) }
        }
        var ids: [Int64] = []
        for id in segments.compactMap({ Int64($0.id) }) where !ids.contains(id) { ids.append(id) }
        return ids
    }

    private func updatePrefetches() {
        guard let prefetcher else { return }
        let targets = nextTargets()
        prefetchTargets = targets
        let current = currentItem?.id
        // An item that just came on screen keeps downloading: its player is about to read it.
        for (id, task) in prefetches where !targets.contains(id) {
            if id != current { task.cancel() }
            prefetches[id] = nil
        }
        for id in targets where prefetches[id] == nil {
            guard let item = items[id] else { continue }
            prefetches[id] = Task { [weak self] in
                let report = await prefetcher.prefetch(item)
                guard report.needsFreshURLs, let self,
                      let fresh = try? await self.mediaFailed(id, error: .expired(message: "prefetch"))
                else { return }
                await prefetcher.prefetch(fresh)
            }
        }
    }

    /// Waits for prefetches, people loading ahead and seen deliveries in flight (tests and
    /// demos, to make runs repeatable).
    public func backgroundWorkFinished() async {
        if let task = loadingAhead { await task.value }
        for task in prefetches.values { await task.value }
        let sending = deliveries
        deliveries = []
        for task in sending { await task.value }
    }
}
