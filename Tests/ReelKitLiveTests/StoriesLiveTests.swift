import Foundation
import ReelKit
import ReelModels
import ReelServer
import ReelStore
import ReelStoreSQLite
import ReelTestSupport
import Testing
import ReelTestFiles

/// `StoriesSession` and the stories calls against the real server over HTTP: a member watches
/// the owner's stories and an archived account's, her seen marks and hearts reach the server
/// (batched, and replayed after the server was down), and the owner sees who watched.
@Suite(.serialized) struct StoriesLiveTests {
    /// Files published posts as story items, oldest first, a minute apart, the last a minute before `end`.
    static func file(_ ids: [Int64], as author: String, userID: Int64?, archived: Bool = false, store: SQLiteStore, endingAt end: Date) async throws {
        for (index, id) in ids.enumerated() {
            let postedAt = end.addingTimeInterval(Double(index - ids.count) * 60)
            try await store.fileStory(postID: id, StoryFiling(
                author: author, userID: userID, postedAt: postedAt, expiresAt: archived ? nil : postedAt.addingTimeInterval(24 * 3600),
                archived: archived
            ))
        }
    }

    @Test @MainActor func aMemberWatchesLikesAndIsSeenEvenAfterTheServerWasDown() async throws {
        try await withLiveServer(videos: 5, synthetic: 3) { server in
            let ids = server.videoIDs
            let now = Date()
            let ownerUser = try #require(try await server.store.user(name: "owner"))
            try await Self.file([ids[0], ids[1]], as: "owner", userID: ownerUser.id, store: server.store, endingAt: now)
            try await Self.file([ids[2]], as: "natgeo", userID: nil, archived: true, store: server.store, endingAt: now.addingTimeInterval(-3600))
            let hash = try await BcryptPasswordHasher(cost: 4).hash(LiveServer.password)
            _ = try await server.store.createUser(name: "mia", role: .member, passwordHash: hash, now: Date())
            let owner = ReelClient(baseURL: server.baseURL, credentials: .apiKey(server.ownerKey))
            let mia = ReelClient(baseURL: server.baseURL)
            try await mia.login(username: "mia", password: LiveServer.password)

            let folder = TemporaryFolder.fresh("reelkit-stories")
            defer { try? FileManager.default.removeItem(at: folder) }
            let clock = ManualClock()
            @MainActor func makeSession() -> StoriesSession {
                let files = LocalFileSystem(root: folder)
                let cache = MediaCache(disk: DiskCache(fileSystem: InMemoryFileSystem(clock: clock), clock: clock))
                return StoriesSession(
                    client: mia, state: OptimisticState(sender: mia, queue: OfflineQueue(fileSystem: files)),
                    prefetcher: MediaPrefetcher(client: mia, cache: cache), seenDelivery: StorySeenDelivery(client: mia, fileSystem: files),
                    seenPolicy: StorySeenPolicy(batchSize: 2, quietPeriod: 2), pageSize: 1, clock: clock
                )
            }
            let session = makeSession()

            // The tray, one person per page: unseen people, newest first; posts never show up.
            while session.hasMoreTray { try await session.loadMore() }
            #expect(session.tray.entries.map(\.user) == ["owner", "natgeo"])
            #expect(session.tray.entries.map(\.itemsCount) == [2, 1] && session.tray.entries.allSatisfy { !$0.allSeen })
            #expect(!(try await mia.feed(limit: 20).items.map(\.id).contains(ids[0])), "a story is not a feed post")

            // Watching: the timer waits for each first frame; the next item and the next
            // person's first item are in the cache before they are shown.
            try await session.open(user: "owner")
            await session.backgroundWorkFinished()
            #expect(session.currentItem?.id == ids[0])
            #expect(session.prefetchTargets == [ids[1], ids[2]])
            let prefetcher = try #require(session.prefetcher)
            for id in [ids[1], ids[2]] {
                let urls = prefetcher.startupURLs(for: try #require(session.item(id)))
                #expect(!urls.isEmpty)
                for url in urls { #expect(await prefetcher.cache.cached(CacheKey(url: url)) != nil, "\(url.path) was prefetched") }
            }
            var shown: [Int64] = []
            while let item = session.currentItem, shown.count < 5 {
                shown.append(item.id)
                clock.advance(by: 30)
                session.tick()
                #expect(session.currentItem?.id == item.id, "no time passes before the first frame")
                session.firstFrameShown(itemID: item.id)
                clock.advance(by: item.duration)
                session.tick()
                await session.backgroundWorkFinished()
            }
            #expect(shown == [ids[0], ids[1], ids[2]], "auto-advance across people")
            #expect(session.player?.isFinished == true)
            #expect(await session.seenDelivery?.pending == [], "every batch went: when full, after a quiet moment, at the end")
            let afterWatching = try await mia.storyTray()
            #expect(afterWatching.tray.map(\.user) == ["owner", "natgeo"] && afterWatching.tray.allSatisfy(\.allSeen))

            // A heart on the owner's first item, then the owner's view of it.
            try await session.open(user: "owner")
            #expect(session.currentItem?.id == ids[0], "all seen: from the first item")
            #expect(await session.toggleLike() == .confirmed(videoID: ids[0], state: PostState(isStoryLiked: true)))
            session.close()
            let viewers = try await owner.storyViewers(itemID: ids[0])
            #expect(viewers.viewers.map(\.user) == ["mia"] && viewers.viewers.first?.liked == true)
            await #expect(throws: ReelAPIError.self) { try await mia.storyViewers(itemID: ids[0]) }
            let ownersPage = try await owner.stories(of: "owner")
            #expect(ownersPage.isMe && ownersPage.items.first?.viewCount == 1 && ownersPage.items.first?.likeCount == 1)

            // A new item lights the ring again; mia watches it while the server is down.
            try await Self.file([ids[3]], as: "owner", userID: ownerUser.id, store: server.store, endingAt: Date().addingTimeInterval(30))
            #expect(try await session.refresh().isEmpty)
            #expect(session.tray.entries.first?.user == "owner" && session.tray.entries.first?.allSeen == false)
            try await session.open(user: "owner")
            #expect(session.currentItem?.id == ids[3], "the player starts at the new item")
            await server.stop()
            session.firstFrameShown(itemID: ids[3])
            #expect(await session.toggleLike() == .queued(.storyLike(itemID: ids[3], liked: true)))
            session.close()
            await session.backgroundWorkFinished()
            #expect(await session.seenDelivery?.pending == [ids[3]])

            // The app is relaunched with the server back: both queues are sent.
            try await server.start()
            let relaunched = makeSession()
            #expect(await relaunched.replay() == .sent(APIStorySeenResponse(accepted: 1, ignored: 0)))
            let page = try await mia.stories(of: "owner")
            #expect(page.items.last?.id == ids[3] && page.items.last?.seen == true && page.items.last?.liked == true)
            #expect(try await mia.storyTray().tray.first { $0.user == "owner" }?.allSeen == true)
        }
    }

    @Test func theOwnerKeepsDeletesAndSeesTheArchive() async throws {
        try await withLiveServer(videos: 3, synthetic: 0) { server in
            let ids = server.videoIDs
            let ownerUser = try #require(try await server.store.user(name: "owner"))
            try await Self.file([ids[0], ids[1]], as: "owner", userID: ownerUser.id, store: server.store, endingAt: Date())
            let owner = ReelClient(baseURL: server.baseURL, credentials: .apiKey(server.ownerKey))

            let kept = try await owner.keepStory(itemID: ids[0])
            #expect(kept.id == ids[0] && kept.kept == true)
            #expect(try await owner.video(id: ids[0]).id == ids[0], "a kept story is a post again")
            try await owner.deleteStory(itemID: ids[1])
            #expect(try await owner.stories(of: "owner").items.map(\.id) == [ids[0]])
            await #expect(throws: ReelAPIError.self) { try await owner.setStoryLike(true, itemID: ids[1]) }
            #expect(try await owner.storyArchive().items.map(\.id) == [ids[0]])
            await #expect(throws: ReelAPIError.self) { try await owner.stories(of: "nobody-here") }
            let seen = try await owner.markStoriesSeen([ids[2], 999_999])
            #expect(seen == APIStorySeenResponse(accepted: 0, ignored: 2), "a post that is no story and an unknown id are ignored, not refused")
        }
    }
}
