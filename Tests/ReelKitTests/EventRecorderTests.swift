import Foundation
import ReelKit
import ReelModels
import Testing

@Suite struct EventRecorderTests {
    let base = URL(string: "http://127.0.0.1:9/")!

    func recorder(
        _ server: EventServerDouble, files: InMemoryFileSystem = InMemoryFileSystem(), clock: ManualClock = ManualClock(),
        policy: EventRecorderPolicy = EventRecorderPolicy(batchSize: 3, flushInterval: 10)
    ) -> EventRecorder {
        let client = ReelClient(baseURL: base, credentials: .apiKey("k"), transport: server)
        return EventRecorder(client: client, fileSystem: files, policy: policy, clock: clock)
    }

    @Test func aBatchGoesWhenFullOrWhenItsFirstEventHasWaitedTheInterval() async {
        let server = EventServerDouble()
        let clock = ManualClock()
        let events = recorder(server, clock: clock)
        #expect(await events.record(.impression, postID: 1) == nil)
        #expect(await events.record(.view, postID: 1, watchedMs: 5000, durationMs: 6000, loops: 0) == nil)
        #expect(await server.eventRequests == 0, "two events wait for a third")
        let full = await events.record(.impression, postID: 2)
        #expect(full?.accepted == 3 && full?.waiting == 0)
        #expect(await server.stored.map(\.type.rawValue) == ["impression", "view", "impression"])
        let view = await server.stored[1]
        #expect(view.watchedMs == 5000 && view.durationMs == 6000)

        await events.record(.skip, postID: 2, watchedMs: 800)
        clock.advance(by: 9)
        #expect(await events.tick() == nil, "not due yet")
        clock.advance(by: 1)
        #expect(await events.tick()?.accepted == 1)
        #expect(await events.tick() == nil, "nothing left")
        #expect(await server.eventRequests == 2)
        #expect(await events.pending.isEmpty)
    }

    @Test func eventsSurviveARelaunchAndAreSentOnceWhenTheNetworkIsBack() async {
        let files = InMemoryFileSystem()
        let server = EventServerDouble()
        await server.failNext(.offline, .offline)
        let first = recorder(server, files: files)
        for id in 1...5 { await first.record(.impression, postID: Int64(id)) }
        // The full batch could not go; the two recorded after it are in the file too.
        #expect(await first.pending.map(\.postID) == [1, 2, 3, 4, 5])
        #expect(await first.flush().stoppedBy == .offline("connection refused"))
        #expect(await server.stored.isEmpty)

        // The app is killed and launched again: a new recorder reads the queue file.
        let relaunched = recorder(server, files: files)
        #expect(await relaunched.pending.map(\.postID) == [1, 2, 3, 4, 5])
        // The first answer is lost after the server stored the batch: it is sent again and
        // counted as duplicates, stored once.
        await server.failNext(.answerLost)
        let lost = await relaunched.flush()
        #expect(lost.stoppedBy != nil && lost.waiting == 5)
        let delivered = await relaunched.flush()
        #expect(delivered.accepted == 2 && delivered.duplicates == 3 && delivered.waiting == 0)
        #expect(await server.stored.map(\.postID) == [1, 2, 3, 4, 5])
        #expect(await recorder(server, files: files).pending.isEmpty, "the file is empty too")
    }

    @Test func aRefusedEventIsDroppedAndTheRestOfItsBatchIsSent() async {
        let server = EventServerDouble(existingPosts: [1, 2])
        let events = recorder(server)
        await events.record(.impression, postID: 1)
        await events.record(.impression, postID: 999)
        let delivery = await events.record(.impression, postID: 2)
        #expect(delivery?.accepted == 2 && delivery?.dropped == 1 && delivery?.waiting == 0)
        guard case .rejected(400, "invalid_event", let message) = delivery?.refusal else {
            Issue.record("expected the 400, got \(String(describing: delivery?.refusal))")
            return
        }
        #expect(message.hasPrefix("events[1]"))
        #expect(await server.stored.map(\.postID) == [1, 2])

        // A refusal that names no event drops its batch: resending cannot make it pass.
        await server.failNext(.status(400, code: "bad_request", message: "the body is not JSON"))
        let refused = await events.flush(with: [.impression], postIDs: [1, 2, 1])
        #expect(refused.dropped == 3 && refused.waiting == 0)
        #expect(await server.stored.count == 2)
    }

    @Test func a429PausesSendingForItsRetryAfterThenBacksOffExponentially() async {
        let server = EventServerDouble()
        let clock = ManualClock()
        let events = recorder(server, clock: clock)
        await server.failNext(.rateLimited(retryAfter: 30))
        let limited = await events.flush(with: [.impression], postIDs: [1, 2, 3])
        #expect(limited.stoppedBy == .rateLimited(retryAfter: 30))
        #expect(limited.retryAt == clock.now().addingTimeInterval(30))
        clock.advance(by: 20)
        let waiting = await events.flush()
        #expect(waiting.waiting == 3 && waiting.retryAt != nil)
        #expect(await events.tick() == nil, "a tick does not knock while backing off")
        #expect(await server.eventRequests == 1, "nothing sent before Retry-After")

        // Without Retry-After: 1 s, then 2 s.
        clock.advance(by: 10)
        await server.failNext(.rateLimited(retryAfter: nil), .rateLimited(retryAfter: nil))
        #expect(await events.flush().retryAt == clock.now().addingTimeInterval(1))
        clock.advance(by: 1)
        #expect(await events.flush().retryAt == clock.now().addingTimeInterval(2))
        clock.advance(by: 2)
        let sent = await events.tick()
        #expect(sent?.accepted == 3 && sent?.retryAt == nil)
    }

    @Test func signedOutOrServerTroubleKeepsTheEvents() async {
        let server = EventServerDouble()
        let events = recorder(server)
        await server.failNext(.status(401, code: "unauthorized", message: "sign in"), .status(503, code: "unavailable", message: "busy"))
        #expect(await events.flush(with: [.like], postIDs: [4, 5, 6]).stoppedBy == .unauthorized(code: "unauthorized", message: "sign in"))
        #expect(await events.flush().stoppedBy == .server(status: 503, message: "busy"))
        #expect(await events.flush().accepted == 3)
    }

    @Test func aQueueOverItsLimitLosesItsOldestBatchesFirst() async {
        let server = EventServerDouble()
        await server.failNext(.offline, .offline, .offline)
        let events = recorder(server, policy: EventRecorderPolicy(batchSize: 2, maxQueuedEvents: 4))
        for id in 1...6 { await events.record(.impression, postID: Int64(id)) }
        #expect(await events.pending.map(\.postID) == [3, 4, 5, 6])
        let delivery = await events.flush()
        #expect(delivery.accepted == 4)
        #expect(await server.stored.map(\.postID) == [3, 4, 5, 6])
    }

    @Test func aFullDiskKeepsEventsInMemoryUntilSent() async {
        let files = InMemoryFileSystem()
        let server = EventServerDouble()
        await server.failNext(.offline)
        let events = recorder(server, files: files)
        files.failWrites = CocoaError(.fileWriteOutOfSpace)
        for id in 1...3 { await events.record(.impression, postID: Int64(id)) }
        #expect(await events.pending.map(\.postID) == [1, 2, 3])
        files.failWrites = nil
        #expect(await events.flush().accepted == 3)
        #expect(await events.pending.isEmpty)
    }
}

extension EventRecorder {
    /// Records one event per post id (cycling through `types`); returns the delivery of the
    /// flush that a full batch started, else of a flush at the end.
    func flush(with types: [EventType], postIDs: [Int64]) async -> EventDelivery {
        var started: EventDelivery?
        for (index, id) in postIDs.enumerated() {
            if let delivery = await record(WatchEvent(postID: id, type: types[index % types.count], at: Date())) { started = delivery }
        }
        if let started { return started }
        return await flush()
    }
}
