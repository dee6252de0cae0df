import ReelKit
import Testing

@Suite struct FeedWindowTests {
    /// A window with `count` items loaded (ids 1…count) and the server saying more exist.
    func loaded(_ count: Int, hasMore: Bool = true, configuration: FeedWindowConfiguration = FeedWindowConfiguration()) -> FeedWindow<Int> {
        var window = FeedWindow<Int>(configuration: configuration)
        _ = window.start()
        _ = window.append(page: Array(1...count), hasMore: hasMore)
        return window
    }

    @Test func launchAsksForThePageThenFillsPreviousCurrentNext() {
        var window = FeedWindow<Int>()
        let first = window.start()
        #expect(first.requestNextPage)
        #expect(first.current == nil && first.changes.isEmpty)
        #expect(!window.start().requestNextPage, "asked once while the page is in flight")

        let plan = window.append(page: [10, 11, 12, 13, 14, 15], hasMore: true)
        #expect(plan.current == 10)
        #expect(Set(plan.slots.compactMap { $0 }) == [10, 11, 12], "at the top there is no previous: the third slot takes next-but-one")
        #expect(plan.activeSlot.map { plan.slots[$0] } == 10)
        #expect(plan.prefetch == [11, 12])
        #expect(!plan.requestNextPage)
    }

    @Test func aSwipeReusesTheSlotThatFellOutOfTheWindow() {
        var window = loaded(10)
        _ = window.move(to: 4)
        let before = window.slots
        let plan = window.next()
        #expect(plan.current == 6)
        #expect(Set(plan.slots.compactMap { $0 }) == [5, 6, 7])
        #expect(plan.changes.count == 1, "only one player changes item per swipe")
        guard case .load(let slot, 7) = plan.changes.first else {
            Issue.record("expected item 7 to be loaded, got \(plan.changes)")
            return
        }
        #expect(before[slot] == 4, "the slot of the item two behind is reused")
        #expect(plan.prefetch == [7, 8, 5])
        #expect(plan.cancelPrefetch == [4])
    }

    @Test func theNextPageIsRequestedThreeFromTheEndOnce() {
        var window = loaded(8)
        for index in 0..<5 { #expect(!window.move(to: index).requestNextPage, "index \(index)") }
        #expect(window.move(to: 5).requestNextPage, "8 items, index 5: three from the end")
        #expect(!window.move(to: 6).requestNextPage, "already asked")
        _ = window.append(page: [9, 10], hasMore: true)
        #expect(window.move(to: 7).requestNextPage, "a new page was appended, so it may ask again")
    }

    @Test func noPageRequestAfterTheLastPage() {
        var window = loaded(4, hasMore: false)
        #expect(!window.move(to: 3).requestNextPage)
    }

    @Test func aFailedPageIsAskedForAgainOnTheNextMove() {
        var window = loaded(5)
        #expect(window.move(to: 3).requestNextPage)
        window.pageFailed()
        #expect(window.move(to: 3).requestNextPage)
    }

    @Test func repeatsAreDroppedButAWholePageOfRepeatsIsAReshuffle() {
        var window = loaded(5)
        _ = window.append(page: [4, 6, 6, 7, 1], hasMore: true)
        #expect(window.items == [1, 2, 3, 4, 5, 6, 7])
        #expect(window.droppedRepeats == 3)
        // Everything seen: a small library reshuffled. Take it again, except what is still in the pool.
        _ = window.append(page: [7, 3, 1, 2], hasMore: true)
        #expect(window.items == [1, 2, 3, 4, 5, 6, 7, 3, 1, 2])
    }

    @Test func aFastFlickStartsOnlyTheItemUnderTheFinger() {
        var window = loaded(20)
        var loads: [Int] = []
        for index in 1...6 {
            let plan = window.move(to: index, settled: false)
            #expect(plan.activeSlot != nil, "the item on screen always has a player")
            loads += plan.changes.compactMap { if case .load(_, let id) = $0 { id } else { nil } }
        }
        #expect(loads == [4, 5, 6, 7], "2 and 3 already had players; neighbours wait for the settle")
        let settled = window.move(to: 7)
        #expect(Set(settled.slots.compactMap { $0 }) == [7, 8, 9])
        #expect(settled.prefetch == [9, 10, 7])
    }

    @Test func aJumpReplacesTheWholePool() {
        var window = loaded(30)
        let plan = window.move(to: 20)
        #expect(Set(plan.slots.compactMap { $0 }) == [20, 21, 22])
        #expect(plan.changes.count == 3)
        #expect(window.move(to: 99).current == 30, "an index past the end is clamped")
    }

    @Test func removingTheCurrentItemSlidesTheNextOneIn() {
        var window = loaded(6)
        _ = window.move(to: 2)
        let plan = window.remove(3)
        #expect(plan.current == 4)
        #expect(!plan.slots.contains(3))
        #expect(Set(plan.slots.compactMap { $0 }) == [2, 4, 5])

        let earlier = window.remove(1)
        #expect(earlier.current == 4, "removing an earlier item keeps the same item on screen")
        #expect(earlier.currentIndex == 1)

        _ = window.remove(6)
        _ = window.remove(5)
        let last = window.remove(4)
        #expect(last.current == 2, "the end of the feed: the previous item is shown")
        let empty = window.remove(2)
        #expect(empty.current == nil && empty.slots.allSatisfy { $0 == nil } && empty.activeSlot == nil)
    }

    @Test func aFeedShorterThanThePoolLeavesSlotsEmpty() {
        var window = loaded(2, hasMore: false)
        let plan = window.move(to: 1)
        #expect(plan.slots.compactMap { $0 }.count == 2)
        #expect(plan.prefetch == [1])
    }

    @Test func prefetchDistancesFollowTheConfiguration() {
        var window = loaded(20, configuration: FeedWindowConfiguration(poolSize: 5, prefetchAhead: 3, prefetchBehind: 2))
        let plan = window.move(to: 10)
        #expect(plan.prefetch == [12, 13, 14, 10, 9])
        #expect(Set(plan.slots.compactMap { $0 }) == [9, 10, 11, 12, 13])
    }
}
