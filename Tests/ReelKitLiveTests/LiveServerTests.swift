import Foundation
import ReelKit
import ReelModels
import ReelTestSupport
import Testing
import ReelTestFiles
import ReelKitTestDoubles

/// ReelKit against the real server over real HTTP on 127.0.0.1. Serialized: one server at a
/// time keeps the 2-core CI machine from timing out.
@Suite(.serialized) struct LiveServerTests {
    @Test func loginPageTheWholeFeedFavoriteAndRate() async throws {
        try await withLiveServer(videos: 4, synthetic: 19) { server in
            let client = ReelClient(baseURL: server.baseURL)

            await #expect(throws: ReelAPIError.unauthorized(code: "unauthorized", message: "sign in, or send an api-key header or a Bearer token")) {
                try await client.me()
            }
            do {
                try await client.login(username: "owner", password: "wrong password")
                Issue.record("a wrong password signed in")
            } catch let error as ReelAPIError {
                guard case .unauthorized(let code, _) = error else { throw error }
                #expect(code == "invalid_credentials")
            }
            let user = try await client.login(username: "owner", password: LiveServer.password)
            #expect(user.name == "owner" && user.role == "owner")
            #expect(try await client.me() == user)

            // Page through the whole library: every post once before anything repeats.
            var seen: [Int64] = [], cursor: String?, pages = 0
            repeat {
                let page = try await client.feed(cursor: cursor, limit: 5)
                seen += page.items.map(\.id)
                cursor = page.nextCursor
                pages += 1
            } while seen.count < server.postCount && cursor != nil && pages < 20
            let firstPass = Array(seen.prefix(server.postCount))
            #expect(firstPass.count == server.postCount)
            #expect(Set(firstPass).count == server.postCount, "a post repeated before the library was exhausted")

            let id = server.videoIDs[0]
            #expect(try await client.setFavorite(true, videoID: id) == APIViewerState(id: id, isFavorited: true, rating: 0))
            #expect(try await client.setRating(4, videoID: id) == APIViewerState(id: id, isFavorited: true, rating: 4))
            let video = try await client.video(id: id)
            #expect(video.isFavorited && video.rating == 4)
            #expect(try await client.favorites().items.map(\.id) == [id])
            #expect(try await client.tags().contains { $0.name == "live" && $0.count == 4 })
            let tagged = try await client.addTags(["kit"], videoID: id)
            #expect(tagged.tags.contains { $0.name == "kit" })

            await #expect(throws: ReelAPIError.notFound(message: "video 999999 was not found")) { try await client.video(id: 999_999) }
            await #expect(throws: ReelAPIError.rejected(status: 400, code: "bad_request", message: "rating must be an integer from 0 to 5")) {
                try await client.setRating(9, videoID: id)
            }
            try await client.logout()
            await #expect(throws: ReelAPIError.self) { try await client.me() }
        }
    }

    @Test func offlineChangesAreReplayedAfterTheServerRestarts() async throws {
        try await withLiveServer(videos: 3, synthetic: 0) { server in
            let queueFolder = TemporaryFolder.fresh("reelkit-queue")
            defer { try? FileManager.default.removeItem(at: queueFolder) }
            let client = ReelClient(baseURL: server.baseURL, credentials: .apiKey(server.ownerKey))
            let ids = server.videoIDs
            let state = OptimisticState(sender: client, queue: OfflineQueue(fileSystem: LocalFileSystem(root: queueFolder)))
            await state.observe(try await client.feed(limit: 10).items)
            #expect(await state.setFavorite(true, videoID: ids[0]) == .confirmed(videoID: ids[0], state: PostState(isFavorited: true, rating: 0)))

            await server.stop()
            guard case .queued = await state.setRating(5, videoID: ids[1]) else {
                Issue.record("with the server down a change must be queued")
                return
            }
            _ = await state.setFavorite(true, videoID: ids[2])
            _ = await state.setFavorite(false, videoID: ids[2])   // collapses to nothing
            _ = await state.setFavorite(false, videoID: ids[0])
            _ = await state.setRating(2, videoID: ids[1])         // replaces the queued 5
            #expect(await state.pending == [.favorite(videoID: ids[0], favorited: false), .rating(videoID: ids[1], rating: 2)])
            #expect(await state.replay() == 0, "still down")

            // The app is relaunched (a new OptimisticState reads the queue file) and the server is back.
            try await server.start()
            let relaunched = OptimisticState(sender: client, queue: OfflineQueue(fileSystem: LocalFileSystem(root: queueFolder)))
            #expect(await relaunched.pending.count == 2)
            #expect(await relaunched.replay() == 2)
            #expect(await relaunched.pending.isEmpty)
            let videos = try await [client.video(id: ids[0]), client.video(id: ids[1]), client.video(id: ids[2])]
            #expect(videos.map(\.isFavorited) == [false, false, false])
            #expect(videos.map(\.rating) == [0, 2, 0])
        }
    }

    @Test @MainActor func aFeedSessionPrefetchesSoSwipesStartFromTheCache() async throws {
        try await withLiveServer(videos: 6, synthetic: 10) { server in
            let client = ReelClient(baseURL: server.baseURL, credentials: .apiKey(server.ownerKey))
            let clock = ManualClock()
            let cache = MediaCache(disk: DiskCache(fileSystem: InMemoryFileSystem(clock: clock), clock: clock))
            let prefetcher = MediaPrefetcher(client: client, cache: cache)
            let slots = (0..<3).map { _ in RecordingSlot() }
            let session = FeedSession(
                client: client, pool: PlayerPool(slots: slots), prefetcher: prefetcher, query: FeedQuery(tags: ["live"]), pageSize: 2
            )
            try await session.start()
            await session.prefetchesFinished()
            var watched: [Int64] = []
            while let video = session.current, watched.count < 6 {
                watched.append(video.id)
                #expect(slots.filter(\.isPlaying).map { $0.item?.id } == [video.id], "exactly the current item plays")
                for url in prefetcher.startupURLs(for: video) { _ = try await prefetcher.load(url) }
                try await session.next()
                await session.prefetchesFinished()
            }
            #expect(Set(watched) == Set(server.videoIDs), "every tagged post, once")
            #expect(session.pagesLoaded >= 3)
            let stats = await cache.statistics
            // The first item's four files are fetched on screen; every later one was prefetched.
            #expect(stats.misses == 4)
            #expect(stats.memoryHits == 20)
            #expect(slots.map(\.loads).reduce(0, +) <= 9, "3 to fill the pool, then one per swipe")
        }
    }
}
