import Foundation
import ReelKit
import ReelModels
import Testing

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
}
