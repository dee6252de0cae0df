import Foundation
import ReelKit
import ReelModels
import ReelTestSupport
import Testing
import ReelKitTestDoubles

/// Signed URLs go stale two ways: their time runs out (410), or the server's secret changes
/// (403, and old cursors are refused). Either way a person keeps watching: the session
/// refetches the item for fresh URLs and restarts paging, against the real server.
@Suite(.serialized) @MainActor struct StaleURLTests {
    func startupURL(_ video: APIVideo, _ client: ReelClient) throws -> URL {
        try #require(video.media.prefetch.flatMap { client.url(for: $0.playlist) })
    }

    @Test func anExpiredItemIsRefetchedOnceAMinuteAndKeepsPlaying() async throws {
        try await withLiveServer(videos: 3, synthetic: 0, tokenWindowSeconds: 10) { server in
            let client = ReelClient(baseURL: server.baseURL, credentials: .apiKey(server.ownerKey))
            let slots = [RecordingSlot(), RecordingSlot(), RecordingSlot()]
            let clock = ManualClock(Date())
            let session = FeedSession(client: client, pool: PlayerPool(slots: slots), pageSize: 3, clock: clock)
            try await session.start()
            let video = try #require(session.current)
            let old = try startupURL(video, client)

            // Wait for a real expiry (window 10 s, margin 0: at most about 10 s); polling finds the
            // boundary, so the fresh URLs fetched next have nearly a whole window to live. (With
            // 5 s, a loaded machine once took longer than that to refetch and play them.)
            var error: ReelAPIError?
            let deadline = Date().addingTimeInterval(20)
            while error == nil, Date() < deadline {
                do { _ = try await client.download(old) } catch let failure as ReelAPIError { error = failure }
                if error == nil { try await Task.sleep(for: .milliseconds(200)) }
            }
            let expired = try #require(error)
            #expect(expired == .expired(message: "this media link has expired; fetch the video again for a fresh one"))
            #expect(expired.needsFreshURLs && !expired.isTransient)

            let loadsBefore = slots.map(\.loads).reduce(0, +)
            let fresh = try #require(try await session.mediaFailed(video.id, error: expired))
            #expect(fresh.id == video.id)
            let url = try startupURL(fresh, client)
            #expect(url != old)
            #expect(try await client.download(url).count > 0, "the fresh URL plays")
            #expect(slots.map(\.loads).reduce(0, +) == loadsBefore + 1, "the slot showing the item got its fresh URLs")
            #expect(slots.filter(\.isPlaying).map { $0.item?.id } == [video.id], "and keeps playing")

            // Once per item per minute: a server that keeps refusing cannot make us loop.
            #expect(try await session.mediaFailed(video.id, error: expired) == nil)
            clock.advance(by: 61)
            #expect(try await session.mediaFailed(video.id, error: expired) != nil)
            // Errors that are not about the URL's signature are not a reason to refetch.
            #expect(try await session.mediaFailed(video.id, error: .server(status: 503, message: "")) == nil)
        }
    }

    @Test func aRotatedSecretRefreshesItemsAndRestartsPaging() async throws {
        try await withLiveServer(videos: 10, synthetic: 0) { server in
            let client = ReelClient(baseURL: server.baseURL, credentials: .apiKey(server.ownerKey))
            let slots = [RecordingSlot(), RecordingSlot(), RecordingSlot()]
            let session = FeedSession(client: client, pool: PlayerPool(slots: slots), pageSize: 4)
            try await session.start()
            let video = try #require(session.current)
            let old = try startupURL(video, client)
            let pagesBefore = session.pagesLoaded

            await server.stop()
            await server.rotateSecret()
            try await server.start()

            let refused: ReelAPIError
            do {
                _ = try await client.download(old)
                Issue.record("a URL signed with the old secret still works")
                return
            } catch let error as ReelAPIError {
                refused = error
            }
            guard case .forbidden = refused else { Issue.record("expected 403, got \(refused)"); return }
            let fresh = try #require(try await session.mediaFailed(video.id, error: refused))
            #expect(try await client.download(try startupURL(fresh, client)).count > 0)

            // Walk past the loaded pages: the old cursor is refused, paging starts again.
            for _ in 0..<6 { try await session.next() }
            #expect(session.pagesLoaded > pagesBefore)
            #expect(session.window.items.count > 8, "items kept coming after the rotation")
        }
    }
}
