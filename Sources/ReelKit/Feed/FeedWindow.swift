/// Tunables of the feed window. Defaults: three players (previous, current, next), media
/// prefetch for the next two items and the previous one (seed 004), the next page asked for
/// when the user is three items from the end.
public struct FeedWindowConfiguration: Sendable, Equatable {
    public var poolSize: Int
    public var prefetchAhead: Int
    public var prefetchBehind: Int
    public var pageThreshold: Int
    /// How far back an arriving item counts as a repeat and is dropped.
    public var dedupeHorizon: Int

    public init(poolSize: Int = 3, prefetchAhead: Int = 2, prefetchBehind: Int = 1, pageThreshold: Int = 3, dedupeHorizon: Int = 200) {
        self.poolSize = max(1, poolSize)
        self.prefetchAhead = max(0, prefetchAhead)
        self.prefetchBehind = max(0, prefetchBehind)
        self.pageThreshold = max(1, pageThreshold)
        self.dedupeHorizon = max(0, dedupeHorizon)
    }
}

/// The feed as a UI sees it (an ordered list of items, the one on screen, a fixed pool of
/// player slots) and the decisions around it, as pure values: which item each slot holds,
/// which slot plays, what to prefetch, when to ask for the next page. It performs nothing;
/// every mutating call returns a `WindowPlan` for a `PlayerPool` and a prefetcher to apply.
public struct FeedWindow<ID: Hashable & Sendable>: Sendable {
    public let configuration: FeedWindowConfiguration
    public private(set) var items: [ID] = []
    public private(set) var currentIndex = 0
    /// What each player slot holds; its count is always `poolSize`.
    public private(set) var slots: [ID?]
    /// False once the server said there is no next page.
    public private(set) var hasMore = true
    /// Items dropped as repeats so far (for diagnostics).
    public private(set) var droppedRepeats = 0
    var pageInFlight = false
    var prefetching: [ID] = []

    public init(configuration: FeedWindowConfiguration = FeedWindowConfiguration()) {
        self.configuration = configuration
        slots = Array(repeating: nil, count: configuration.poolSize)
    }

    public var current: ID? { items.indices.contains(currentIndex) ? items[currentIndex] : nil }

    /// The plan for the present state without changing it: at launch, this asks for page one.
    public mutating func start() -> WindowPlan<ID> {
        plan(settled: true)
    }

    /// Appends a page from the server, dropping items already shown recently (the feed
    /// repeats only after the library is exhausted; a reshuffled epoch may start with what the
    /// last one ended with).
    public mutating func append(page: [ID], hasMore: Bool) -> WindowPlan<ID> {
        pageInFlight = false
        self.hasMore = hasMore
        let recent = Set(items.suffix(configuration.dedupeHorizon))
        var accepted: [ID] = [], inPage = Set<ID>()
        for id in page where !recent.contains(id) && inPage.insert(id).inserted { accepted.append(id) }
        if accepted.isEmpty, !page.isEmpty {
            // A whole page of repeats means the library is smaller than the horizon and has
            // been seen: take it again rather than stall, but never an item still in the pool.
            let nearby = Set(items.suffix(configuration.poolSize))
            inPage = []
            for id in page where !nearby.contains(id) && inPage.insert(id).inserted { accepted.append(id) }
        }
        droppedRepeats += page.count - accepted.count
        items += accepted
        return plan(settled: true)
    }

    /// The page request failed: the next move asks again.
    public mutating func pageFailed() {
        pageInFlight = false
    }

    /// Shows item `index` (clamped). While a flick is still moving (`settled: false`) only the
    /// item under the finger gets a player: neighbours and prefetch wait for the settle, so
    /// skipping over ten items costs at most one load each, not three.
    public mutating func move(to index: Int, settled: Bool = true) -> WindowPlan<ID> {
        currentIndex = items.isEmpty ? 0 : min(max(0, index), items.count - 1)
        return plan(settled: settled)
    }

    public mutating func next() -> WindowPlan<ID> { move(to: currentIndex + 1) }
    public mutating func previous() -> WindowPlan<ID> { move(to: currentIndex - 1) }

    /// The item is gone (deleted, flagged, filtered out): the next one slides into its place.
    public mutating func remove(_ id: ID) -> WindowPlan<ID> {
        guard let index = items.firstIndex(of: id) else { return plan(settled: true) }
        items.remove(at: index)
        if index < currentIndex { currentIndex -= 1 }
        currentIndex = items.isEmpty ? 0 : min(currentIndex, items.count - 1)
        return plan(settled: true)
    }

    // MARK: - Planning

    /// Indexes that deserve a player, most important first: current, next, previous, then
    /// alternating outwards with the forward side first.
    func wantedIndexes() -> [Int] {
        guard !items.isEmpty else { return [] }
        var wanted = [currentIndex], distance = 1
        while wanted.count < configuration.poolSize, distance < items.count {
            for index in [currentIndex + distance, currentIndex - distance] where items.indices.contains(index) {
                if wanted.count < configuration.poolSize { wanted.append(index) }
            }
            distance += 1
        }
        return wanted
    }

    mutating func plan(settled: Bool) -> WindowPlan<ID> {
        let before = slots
        let present = Set(items)
        // An item that left the feed never keeps its player.
        for slot in slots.indices where slots[slot].map({ !present.contains($0) }) ?? false { slots[slot] = nil }

        let wanted = (settled ? wantedIndexes() : (current.map { _ in [currentIndex] } ?? [])).map { items[$0] }
        let wantedSet = Set(wanted)
        if settled {
            for slot in slots.indices where slots[slot].map({ !wantedSet.contains($0) }) ?? false { slots[slot] = nil }
        }
        for id in wanted where !slots.contains(id) {
            // A free slot first; otherwise the one whose item is least wanted (farthest away).
            let target = slots.firstIndex(of: nil) ?? evictionCandidate(excluding: wantedSet)
            if let target { slots[target] = id }
        }

        var changes: [SlotChange<ID>] = []
        for slot in slots.indices where slots[slot] != before[slot] {
            changes.append(slots[slot].map { .load(slot: slot, item: $0) } ?? .unload(slot: slot))
        }
        let previousPrefetch = prefetching
        // Mid-flick the old list stands (minus what is now on screen): no churn per item passed.
        prefetching = settled ? prefetchList() : prefetching.filter { $0 != current }
        var requestPage = false
        if hasMore, !pageInFlight, items.isEmpty || currentIndex >= items.count - configuration.pageThreshold {
            pageInFlight = true
            requestPage = true
        }
        return WindowPlan(
            current: current, currentIndex: items.isEmpty ? nil : currentIndex, slots: slots, changes: changes,
            activeSlot: current.flatMap { slots.firstIndex(of: $0) }, prefetch: prefetching,
            cancelPrefetch: previousPrefetch.filter { !prefetching.contains($0) && $0 != current }, requestNextPage: requestPage
        )
    }

    /// The slot holding the item farthest from the current index that is not wanted.
    func evictionCandidate(excluding wanted: Set<ID>) -> Int? {
        let distance = { (id: ID) in abs((self.items.firstIndex(of: id) ?? Int.max / 2) - self.currentIndex) }
        let candidates = slots.indices.compactMap { slot in slots[slot].flatMap { wanted.contains($0) ? nil : (slot, distance($0)) } }
        return candidates.max { $0.1 < $1.1 }?.0
    }

    func prefetchList() -> [ID] {
        guard !items.isEmpty else { return [] }
        let ahead = (0..<configuration.prefetchAhead).map { currentIndex + 1 + $0 }
        let behind = (0..<configuration.prefetchBehind).map { currentIndex - 1 - $0 }
        var unique = Set<ID>(current.map { [$0] } ?? [])
        // After removals a reshuffled id can sit next to its earlier copy: list each once.
        return (ahead + behind).filter(items.indices.contains).map { items[$0] }.filter { unique.insert($0).inserted }
    }
}

public enum SlotChange<ID: Hashable & Sendable>: Sendable, Equatable {
    /// Put this item in this slot (replacing whatever it held).
    case load(slot: Int, item: ID)
    /// Empty the slot.
    case unload(slot: Int)
}

/// What the UI should do after a feed event. Applying `changes` to the previous plan's slots
/// gives `slots`; `activeSlot` plays and every other slot pauses.
public struct WindowPlan<ID: Hashable & Sendable>: Sendable, Equatable {
    public var current: ID?
    public var currentIndex: Int?
    public var slots: [ID?]
    public var changes: [SlotChange<ID>]
    public var activeSlot: Int?
    /// Items whose first segments should be in the cache, most urgent first.
    public var prefetch: [ID]
    /// Prefetches the previous plan asked for that are no longer wanted (never the item now on
    /// screen: its player needs those bytes).
    public var cancelPrefetch: [ID]
    /// Ask the server for the next page now (true once per page: the window remembers it asked).
    public var requestNextPage: Bool
}
