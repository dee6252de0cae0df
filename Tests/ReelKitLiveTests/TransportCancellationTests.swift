import Foundation
import ReelKit
import ReelTestSupport
import Testing

/// URLSessionTransport cancelled while its answer arrives. FoundationNetworking's own
/// `data(for:)` deadlocked there (its cancel waits for the session's queue under the task's
/// status lock, while that queue waits for the lock to resume the caller): a CI `swift test`
/// hung for good inside a screen model whose `async let` siblings were cancelled (its stacks,
/// read with gdb, showed the two threads). The window is narrow: three runs of 4,000 did not
/// hit it with `data(for:)` either, so this guards the transport's cancel path rather than
/// proving the race.
@Suite(.serialized) struct TransportCancellationTests {
    static let requests = 1000
    static let deadline: Duration = .seconds(60)

    @Test func requestsCancelledAtEveryMomentAllEnd() async throws {
        try await withLiveServer(videos: 0, synthetic: 0) { server in
            let transport = URLSessionTransport()
            let url = server.baseURL.appendingPathComponent("health")
            let ended = EndCounter()
            for index in 0..<Self.requests {
                let request = Task {
                    _ = try? await transport.send(HTTPRequestValue(method: "GET", url: url))
                    await ended.add()
                }
                // From at once to a little past a loopback answer: some cancels land before
                // the request goes out, some while the answer is being delivered, some after.
                let wait = Duration.microseconds((index * 7) % 1500)
                Task {
                    try? await Task.sleep(for: wait)
                    request.cancel()
                }
            }
            let clock = ContinuousClock()
            let start = clock.now
            while await ended.count < Self.requests, clock.now - start < Self.deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            let count = await ended.count
            #expect(count == Self.requests, "\(Self.requests - count) requests never ended after cancellation")
        }
    }
}

private actor EndCounter {
    private(set) var count = 0
    func add() { count += 1 }
}
