import Foundation
import ReelKit
import ReelModels
import Testing

@Suite @MainActor struct StoriesSessionTests {
    let base = URL(string: "http://127.0.0.1:9/")!

    /// ana: 11, 12, 13 (13 a photo); ben: 21, 22; cy: 31. Tray pages [ana, ben] then [cy].
    func makeServer() async -> StoryServerDouble {
        let server = StoryServerDouble()
        await server.setTray([
            StoryServerDouble.firstPage: APIStoryTray(tray: [StoryFixtures.entry("ana", items: 3), StoryFixtures.entry("ben")], nextCursor: "c1"),
            "c1": APIStoryTray(tray: [StoryFixtures.entry("cy", items: 1)], nextCursor: nil),
        ])
        await server.setPerson(StoryFixtures.page("ana", [StoryFixtures.item(11), StoryFixtures.item(12), StoryFixtures.item(13, kind: .photo)]))
        await server.setPerson(StoryFixtures.page("ben", [StoryFixtures.item(21), StoryFixtures.item(22)]))
        await server.setPerson(StoryFixtures.page("cy", [StoryFixtures.item(31)]))
        return server
    }

    func makeSession(
        _ server: StoryServerDouble, files: InMemoryFileSystem = InMemoryFileSystem(), clock: ManualClock = ManualClock(),
        policy: StorySeenPolicy = StorySeenPolicy(), prefetcher: Bool = false
    ) -> StoriesSession {
        let client = ReelClient(baseURL: base, credentials: .apiKey("k"), transport: server)
        let state = OptimisticState(sender: client, queue: OfflineQueue(fileSystem: files))
        let cache = MediaCache(disk: DiskCache(fileSystem: InMemoryFileSystem(clock: clock), clock: clock))
        return StoriesSession(
            client: client, state: state, prefetcher: prefetcher ? MediaPrefetcher(client: client, cache: cache) : nil,
            seenDelivery: StorySeenDelivery(client: client, fileSystem: files), seenPolicy: policy, pageSize: 2, clock: clock
        )
    }

    @Test func theTrayPagesToItsEndAndARefreshPutsNewPeopleInFrontOnce() async throws {
        let server = await makeServer()
        let session = makeSession(server)
        try await session.loadMore()
        #expect(session.tray.entries.map(\.user) == ["ana", "ben"] && session.hasMoreTray)
        await server.setTray([
            StoryServerDouble.firstPage: APIStoryTray(tray: [StoryFixtures.entry("dee"), StoryFixtures.entry("Ana", items: 4)], nextCursor: "c1"),
            "c1": APIStoryTray(tray: [StoryFixtures.entry("cy", items: 1), StoryFixtures.entry("BEN")], nextCursor: nil),
        ])
        try await session.loadMore()
        #expect(session.tray.entries.map(\.user) == ["ana", "ben", "cy"], "ben, on two pages, is listed once")
        #expect(!session.hasMoreTray)
        let requestsAtTheEnd = await server.requests.count
        try await session.loadMore()
        #expect(await server.requests.count == requestsAtTheEnd, "nothing is asked for after the last page")

        let added = try await session.refresh()
        #expect(added == ["dee"])
        #expect(session.tray.entries.map(\.user) == ["dee", "Ana", "ben", "cy"], "the fresh first page in front, nobody twice")
        #expect(session.tray.entries[1].itemsCount == 4, "a person on the fresh page shows the fresh count")
        #expect(try await session.refresh().isEmpty)
        #expect(session.tray.entries.count == 4)
    }

    @Test func theTimerStartsOnTheFirstFrameNotWhenTheItemOpens() async throws {
        let server = await makeServer()
        let clock = ManualClock()
        let session = makeSession(server, clock: clock)
        try await session.loadMore()
        try await session.open(user: "ana")
        #expect(session.currentItem?.id == 11 && session.player?.pauseReasons == [.buffering])

        clock.advance(by: 10)
        #expect(session.tick().isEmpty)
        #expect(session.player?.elapsed == 0, "ten seconds of loading use none of the item's five")
        session.firstFrameShown(itemID: 11)
        clock.advance(by: 2)
        session.tick()
        #expect(session.player?.elapsed == 2)

        session.setBuffering(true)   // the video stalls
        clock.advance(by: 30)
        session.tick()
        #expect(session.player?.elapsed == 2, "a stalled video holds its segment")
        session.setBuffering(false)
        clock.advance(by: 3.5)
        #expect(session.tick() == [.segmentStarted(user: "ana", segment: "12")])
        #expect(session.player?.elapsed == 0 && session.player?.pauseReasons == [.buffering], "the next item waits for its own first frame")

        session.firstFrameShown(itemID: 11)   // a late report from the item before
        clock.advance(by: 4)
        session.tick()
        #expect(session.currentItem?.id == 12 && session.player?.elapsed == 0)
        session.firstFrameShown(itemID: 12)
        clock.advance(by: 1)
        session.tick()
        #expect(session.player?.elapsed == 1)
    }

    @Test func seenItemsGoInBatchesAfterAQuietPeriodWhenFullAndOnClose() async throws {
        let server = await makeServer()
        let clock = ManualClock()
        let session = makeSession(server, clock: clock, policy: StorySeenPolicy(batchSize: 3, quietPeriod: 2))
        try await session.loadMore()
        try await session.open(user: "ana")

        session.firstFrameShown(itemID: 11)
        clock.advance(by: 1)
        session.tick()
        await session.backgroundWorkFinished()
        #expect(await server.seenBatches.isEmpty, "still within the quiet period")
        clock.advance(by: 1.5)
        session.tick()
        await session.backgroundWorkFinished()
        #expect(await server.seenBatches == [[11]])

        for id: Int64 in [12, 13, 21] {
            session.tapRight()
            #expect(session.currentItem?.id == id)
            session.firstFrameShown(itemID: id)
        }
        await session.backgroundWorkFinished()
        #expect(await server.seenBatches == [[11], [12, 13, 21]], "a full batch goes at once")
        #expect(session.currentUser == "ben", "the player went on to the next person")
        #expect(session.tray.entries.first { $0.user == "ana" }?.allSeen == true, "ana's ring is grey without a refresh")
        #expect(session.tray.entries.first { $0.user == "ben" }?.allSeen == false)

        session.tapRight()
        session.firstFrameShown(itemID: 22)
        session.tapLeft()
        session.firstFrameShown(itemID: 21)   // seen before: not sent again
        session.close()
        await session.backgroundWorkFinished()
        #expect(await server.seenBatches == [[11], [12, 13, 21], [22]], "closing sends what waited")
        #expect(session.player == nil)
    }

    @Test func seenBatchesWaitInTheQueueFileWhileOfflineAndAreSentAfterARelaunch() async throws {
        let server = await makeServer()
        let files = InMemoryFileSystem()
        let session = makeSession(server, files: files, policy: StorySeenPolicy(batchSize: 50, quietPeriod: 2))
        try await session.loadMore()
        try await session.open(user: "ana")
        await server.setOffline(true)
        session.firstFrameShown(itemID: 11)
        session.tapRight()
        session.firstFrameShown(itemID: 12)
        session.close()
        await session.backgroundWorkFinished()
        #expect(await session.seenDelivery?.pending == [11, 12])

        await server.setOffline(false)
        try await session.open(user: "ben")
        await server.setOffline(true)
        session.firstFrameShown(itemID: 21)
        session.close()
        await session.backgroundWorkFinished()
        #expect(await server.seenBatches.isEmpty)

        // The app is killed; at the next launch, with the network back, the queue file is sent.
        await server.setOffline(false)
        let relaunched = StorySeenDelivery(client: ReelClient(baseURL: base, credentials: .apiKey("k"), transport: server), fileSystem: files)
        #expect(await relaunched.pending == [11, 12, 21])
        #expect(await relaunched.replay() == .sent(APIStorySeenResponse(accepted: 3, ignored: 0)))
        #expect(await server.seenBatches == [[11, 12, 21]], "one request for everything seen offline")
        #expect(await relaunched.pending.isEmpty)
        #expect(await relaunched.replay() == .nothingToSend)
    }

    @Test func aLikeShowsAtOnceAndARefusedOneRollsBack() async throws {
        let server = await makeServer()
        let session = makeSession(server)
        try await session.loadMore()
        try await session.open(user: "ana")
        #expect(await session.isLiked(11) == false)

        let liked = await session.toggleLike()
        #expect(liked == .confirmed(videoID: 11, state: PostState(isStoryLiked: true)))
        #expect(await session.isLiked(11))
        #expect(await server.liked == [11])

        await server.setLikeStatus(404)   // the item was deleted meanwhile
        let refused = await session.toggleLike()
        guard case .rolledBack(11, let state, .notFound(message: _))? = refused else {
            Issue.record("a refused unlike must roll back, got \(String(describing: refused))")
            return
        }
        #expect(state.isStoryLiked, "back to what the server has")
        #expect(await session.isLiked(11))

        await server.setLikeStatus(nil)
        await server.setOffline(true)
        #expect(await session.toggleLike() == .queued(.storyLike(itemID: 11, liked: false)))
        #expect(await session.isLiked(11) == false, "shown at once while offline")
        await server.setOffline(false)
        _ = await session.replay()
        #expect(await server.liked.isEmpty, "the queued unlike reached the server")
    }

    @Test func prefetchAsksForTheNextItemAndTheNextPersonsFirstItem() async throws {
        let server = await makeServer()
        // ana has seen 11: she starts at 12. ben has seen 21: his first item for her is 22.
        await server.setPerson(StoryFixtures.page("ana", [StoryFixtures.item(11, seen: true), StoryFixtures.item(12), StoryFixtures.item(13, kind: .photo)]))
        await server.setPerson(StoryFixtures.page("ben", [StoryFixtures.item(21, seen: true), StoryFixtures.item(22)]))
        let session = makeSession(server, prefetcher: true)
        try await session.loadMore()
        try await session.open(user: "ana")
        await session.backgroundWorkFinished()
        #expect(session.currentItem?.id == 12)
        #expect(session.prefetchTargets == [13, 22])
        let prefetcher = try #require(session.prefetcher)
        var expected: [String] = []
        for id: Int64 in [13, 22] { expected += prefetcher.startupURLs(for: try #require(session.item(id))).map(\.path) }
        #expect(Set(await server.mediaPaths) == Set(expected), "the photo's image, the video's poster and first segment; no key")
        #expect(expected.contains("/img/T/13/1080.jpg") && expected.contains("/media/T/22/240p/seg_00000.m4s"))
        #expect(await server.pagePaths == ["/api/v1/stories/ana", "/api/v1/stories/ben"], "cy is not fetched yet")

        session.tapRight()
        #expect(session.prefetchTargets == [22], "at ana's last item the next item is ben's first")
        session.tapRight()
        await session.backgroundWorkFinished()
        #expect(session.currentItem?.id == 22)
        #expect(await server.pagePaths.last == "/api/v1/stories/cy", "moving to ben loads the person after him")
        #expect(session.prefetchTargets == [31])
        #expect(await server.mediaPaths.contains("/media/T/31/240p/seg_00000.m4s"))
    }

    @Test func expiredMediaURLsAreFetchedAgainAtMostOnceAMinutePerPerson() async throws {
        let server = await makeServer()
        await server.expire(token: "T")
        await server.setRefetched(StoryFixtures.page("ana", [StoryFixtures.item(11, token: "U"), StoryFixtures.item(12, token: "U"), StoryFixtures.item(13, kind: .photo, token: "U")]))
        await server.setRefetched(StoryFixtures.page("ben", [StoryFixtures.item(21, token: "U"), StoryFixtures.item(22, token: "U")]))
        let clock = ManualClock()
        let session = makeSession(server, clock: clock, prefetcher: true)
        try await session.loadMore()
        try await session.open(user: "ana")
        await session.backgroundWorkFinished()
        #expect(session.prefetchTargets == [12, 21])
        // Each person's page once for the player, once more for fresh URLs (in either order).
        #expect(await server.pagePaths.sorted() == ["/api/v1/stories/ana", "/api/v1/stories/ana", "/api/v1/stories/ben", "/api/v1/stories/ben"])
        #expect(session.item(12)?.media.prefetch?.firstSegment == "/media/U/12/240p/seg_00000.m4s")
        #expect(await server.mediaPaths.contains("/media/U/21/240p/seg_00000.m4s"), "the prefetch went on with the fresh URLs")

        // The player's own 410 for the item on screen, within the minute: not fetched again.
        #expect(try await session.mediaFailed(11, error: .expired(message: "gone")) == nil)
        #expect(try await session.mediaFailed(11, error: .notFound(message: "not about URLs")) == nil)
        clock.advance(by: 61)
        let fresh = try await session.mediaFailed(11, error: .forbidden(message: "secret rotated"))
        #expect(fresh?.media.master == "/media/U/11/master.m3u8")
        #expect(await server.pagePaths.count == 5)
    }

    @Test func autoAdvanceRunsAcrossPeopleAndPagesOfTheTray() async throws {
        let server = await makeServer()
        let clock = ManualClock()
        let session = makeSession(server, clock: clock)
        try await session.loadMore()
        try await session.open(user: "ben")
        await session.backgroundWorkFinished()
        #expect(session.lineup == ["ben", "cy"], "the tray's next page joined the lineup")
        var shown: [Int64] = []
        while let item = session.currentItem, shown.count < 10 {
            shown.append(item.id)
            session.firstFrameShown(itemID: item.id)
            clock.advance(by: item.duration)
            session.tick()
            await session.backgroundWorkFinished()
        }
        #expect(shown == [21, 22, 31])
        #expect(session.player?.isFinished == true)
    }

    @Test func aPersonWhoseStoriesAreGoneIsSkippedAndLeavesTheTray() async throws {
        let server = await makeServer()
        let session = makeSession(server)
        try await session.loadMore()
        try await session.loadMore()
        await server.removePerson("ben")   // ben's stories expired between the tray and the tap
        try await session.open(user: "ana")
        await session.backgroundWorkFinished()
        #expect(session.player?.users.map(\.id) == ["ana", "cy"])
        #expect(session.tray.entries.map(\.user) == ["ana", "cy"])
        await #expect(throws: ReelAPIError.notFound(message: "/api/v1/stories/ben was not found")) { try await session.open(user: "ben") }
    }
}
