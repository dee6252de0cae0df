import Foundation
import ReelKit
import ReelModels
import Testing
import ReelKitTestDoubles

@Suite @MainActor struct FeedSessionTests {
    func page(_ ids: [Int64], next: String?) throws -> Result<HTTPResponseValue, ReelAPIError> {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let body = try encoder.encode(APIFeedPage(items: ids.map { Fixtures.video(id: $0) }, nextCursor: next))
        return .success(HTTPResponseValue(status: 200, body: body))
    }

    @Test func aFailedPageIsRetriedOnTheNextMoveAndEveryPlanReachesThePool() async throws {
        let transport = ScriptedTransport([
            try page([1, 2], next: "c1"),
            try page([3, 4], next: "c2"),
            .failure(.offline("airplane mode")),
            try page([5, 6, 7], next: "c3"),
        ])
        let client = ReelClient(baseURL: URL(string: "http://127.0.0.1:9")!, credentials: .apiKey("k"), transport: transport)
        let slots = [RecordingSlot(), RecordingSlot(), RecordingSlot()]
        let session = FeedSession(client: client, pool: PlayerPool(slots: slots), pageSize: 2)

        try await session.start()
        #expect(session.pagesLoaded == 2, "two items are within three of the end, so page two follows at once")
        #expect(Set(slots.compactMap { $0.item?.id }) == [1, 2, 3], "loads from both pages' plans reached the slots")
        #expect(slots.filter(\.isPlaying).map { $0.item?.id } == [1])

        await #expect(throws: ReelAPIError.offline("airplane mode")) { try await session.next() }
        #expect(session.current?.id == 2, "the swipe itself happened")
        #expect(slots.filter(\.isPlaying).map { $0.item?.id } == [2])

        try await session.next()
        #expect(session.pagesLoaded == 3)
        #expect(session.window.items == [1, 2, 3, 4, 5, 6, 7])
        #expect(Set(slots.compactMap { $0.item?.id }) == [2, 3, 4])
        let cursors = await transport.requests.map { URLComponents(url: $0.url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "cursor" }?.value }
        #expect(cursors == [nil, "c1", "c2", "c2"], "the failed page is asked for again with the same cursor")
    }

    @Test func watchingRecordsImpressionsAndViewsAndSendsThemBeforeTheNextPage() async throws {
        let server = EventServerDouble(pages: [
            APIFeedPage(items: [1, 2, 3, 4].map { Fixtures.video(id: $0, duration: 6) }, nextCursor: "c1", mode: .forYou),
            APIFeedPage(items: [5, 6, 7].map { Fixtures.video(id: $0, duration: 6) }, nextCursor: "c2", mode: .forYou),
        ])
        let clock = ManualClock()
        let client = ReelClient(baseURL: URL(string: "http://127.0.0.1:9")!, credentials: .apiKey("k"), transport: server)
        let events = EventRecorder(client: client, fileSystem: InMemoryFileSystem(), clock: clock)
        let slots = [RecordingSlot(), RecordingSlot(), RecordingSlot()]
        let session = FeedSession(client: client, pool: PlayerPool(slots: slots), mode: .forYou, events: events, pageSize: 4, clock: clock)

        try await session.start()
        #expect(session.servedMode == .forYou)
        clock.advance(by: 7)   // 6 s post, looped into a second play
        // Item 2 is three from the end: page two is asked for, and what was recorded goes first.
        try await session.next()
        #expect(await server.feedRequests.count == 2)
        #expect(await server.stored.map(\.type.rawValue) == ["impression"])
        clock.advance(by: 1)
        // A fling passes over item 3: only where it settles is shown.
        try await session.move(to: 2, settled: false)
        try await session.move(to: 3)
        clock.advance(by: 4)
        session.reportPlayback(watchedMs: 3000, loops: 0)   // the player stalled for a second
        await session.endWatching()

        let stored = await server.stored
        #expect(stored.map { "\($0.type) \($0.postID)" } == [
            "impression 1", "view 1", "impression 2", "skip 2", "impression 4", "view 4",
        ])
        #expect(stored[1].watchedMs == 7000 && stored[1].durationMs == 6000 && stored[1].loops == 1)
        #expect(stored[3].watchedMs == 1000 && stored[5].watchedMs == 3000)
        #expect(await events.pending.isEmpty)
        let modes = await server.feedRequests.map { URLComponents(url: $0, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "mode" }?.value }
        #expect(modes == ["for_you", "for_you"])
        #expect(await server.eventRequests == 2, "one flush before page two, one at the end (the default batch is 25)")
    }
}
