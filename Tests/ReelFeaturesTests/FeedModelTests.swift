import Foundation
import ReelFeatures
import ReelKit
import ReelKitTestDoubles
import ReelModels
import ReelServer
import ReelStore
import ReelStoreSQLite
import ReelTestFiles
import ReelTestSupport
import Testing

/// The feed screen against the live server: three players, modes and filters, hearts that
/// show at once, offline and back, "not interested", and fresh URLs after a secret rotation.
@Suite(.serialized) @MainActor struct FeedModelTests {
    func feed(_ harness: Harness, pageSize: Int = 10) async throws -> (FeedModel, [RecordingSlot]) {
        let slots = [RecordingSlot(), RecordingSlot(), RecordingSlot()]
        let model = FeedModel(context: try await harness.context(), slots: slots.map(AnyPlayerSlot.init), pageSize: pageSize)
        return (model, slots)
    }

    @Test func theFirstPageFillsThreePlayersAndSwipesMoveThem() async throws {
        try await withHarness(videos: 6) { harness in
            let (model, slots) = try await feed(harness, pageSize: 3)
            await model.start()
            #expect(model.error == nil && model.items.count >= 3)
            let first = try #require(model.current)
            #expect(slots.filter(\.isPlaying).map { $0.item?.id } == [first.id], "only the item on screen plays")
            #expect(model.slotContents.compactMap { $0 } == Array(model.items.prefix(3).map(\.id)), "the next items wait in the other players")

            for index in 1..<6 { await model.move(to: index) }
            #expect(model.currentIndex == 5, "pages arrive as the person nears the end")
            #expect(Set(model.items.prefix(6).map(\.id)) == Set(harness.server.videoIDs), "every post once before any repeats")
            #expect(slots.filter(\.isPlaying).map { $0.item?.id } == [model.current?.id])
            #expect(slots.compactMap(\.item).count <= 3)
        }
    }

    @Test func watchingIsRecordedForForYou() async throws {
        try await withHarness(videos: 3) { harness in
            let (model, _) = try await feed(harness)
            await model.start()
            let first = try #require(model.current?.id)
            model.reportPlayback(watchedMs: 4000, loops: 1)
            harness.clock.advance(by: 5)
            await model.move(to: 1)
            await model.enterBackground()
            await model.settle()
            let history = try await harness.client().history()
            #expect(history.items.map(\.postID).contains(first), "the view reached the server")
        }
    }

    @Test func aModeOrAFilterStartsTheFeedOver() async throws {
        try await withHarness(videos: 5) { harness in
            let client = harness.client()
            let tagged = harness.server.videoIDs[3]
            _ = try await client.addTags(["kit"], videoID: tagged)
            let (model, _) = try await feed(harness)
            await model.start()
            await model.move(to: 2)

            await model.select(mode: .latest)
            #expect(model.mode == .latest && model.servedMode == .latest && model.currentIndex == 0)
            #expect(model.items.map(\.id) == harness.server.videoIDs.reversed(), "Latest: newest first")

            await model.apply(filter: FeedFilter(tags: ["kit"]))
            #expect(model.items.map(\.id) == [tagged])
            await model.apply(filter: FeedFilter())
            #expect(model.items.count == 5)
        }
    }

    @Test func aHeartShowsAtOnceAndTheServerKeepsIt() async throws {
        try await withHarness(videos: 3) { harness in
            let (model, _) = try await feed(harness)
            await model.start()
            let id = try #require(model.current?.id)
            await model.toggleLike(id)
            await model.rate(id, stars: 4)
            #expect(model.state(of: id) == PostState(isFavorited: true, rating: 4))
            let stored = try await harness.client().video(id: id)
            #expect(stored.isFavorited && stored.rating == 4)
            await model.toggleLike(id)
            #expect(try await harness.client().video(id: id).isFavorited == false)
            #expect(model.notice == nil && !model.isOffline)
        }
    }

    @Test func aHeartOnAPostDeletedMeanwhileIsRolledBackWithANotice() async throws {
        try await withHarness(videos: 3) { harness in
            let (model, _) = try await feed(harness)
            await model.start()
            let id = try #require(model.items.last?.id)
            try await harness.client().deleteVideo(id: id)
            await model.toggleLike(id)
            #expect(model.state(of: id).isFavorited == false)
            #expect(model.notice?.hasPrefix("Couldn't save that:") == true)
        }
    }

    @Test func offlineHeartsWaitBehindABannerAndGoOutWhenTheServerIsBack() async throws {
        try await withHarness(videos: 3) { harness in
            let (model, _) = try await feed(harness)
            await model.start()
            let id = try #require(model.current?.id)
            await harness.server.stop()
            await model.toggleLike(id)
            #expect(model.state(of: id).isFavorited, "still shown")
            #expect(model.isOffline && model.waitingChanges == 1)

            try await harness.server.start()
            await model.retry()
            #expect(!model.isOffline && model.waitingChanges == 0)
            #expect(try await harness.client().video(id: id).isFavorited)
        }
    }

    @Test func aFeedThatCannotLoadSaysOfflineAndRetryLoadsIt() async throws {
        try await withHarness(videos: 2) { harness in
            let (model, _) = try await feed(harness)
            await harness.server.stop()
            await model.start()
            #expect(model.items.isEmpty && model.error?.kind == .offline && model.isOffline)
            try await harness.server.start()
            await model.retry()
            #expect(model.error == nil && model.items.count == 2 && !model.isOffline)
        }
    }

    @Test func notInterestedAndHiddenUploadersLeaveTheFeedAndReachTheServer() async throws {
        try await withHarness(videos: 4) { harness in
            let (model, _) = try await feed(harness)
            await model.start()
            let skipped = try #require(model.items.last?.id)
            await model.notInterested(skipped)
            #expect(!model.items.map(\.id).contains(skipped))
            #expect(model.notice == "You won't see this post again. Undo in Profile.")
            let listed = try await harness.client().notInterested()
            #expect(listed.items.map(\.postID) == [skipped])

            // Every test clip is by "Up": hiding the uploader empties the feed.
            let id = try #require(model.current?.id)
            await model.hideUploader(of: id)
            #expect(model.items.isEmpty)
            #expect(try await harness.client().hiddenUploaders().map(\.uploader) == ["Up"])
        }
    }

    @Test func anExpiredLinkIsFetchedAgainForTheSlotShowingIt() async throws {
        try await withHarness(videos: 2, tokenWindowSeconds: 3) { harness in
            let (model, slots) = try await feed(harness)
            await model.start()
            let item = try #require(model.current)
            let master = try #require(item.media.master)
            let stale = try #require(harness.client().url(for: master))
            // A real expiry: the link's window is 3 s.
            var expired: ReelAPIError?
            let deadline = Date().addingTimeInterval(20)
            while expired == nil, Date() < deadline {
                do { _ = try await harness.client().download(stale) } catch let error as ReelAPIError { expired = error }
                if expired == nil { try await Task.sleep(for: .milliseconds(200)) }
            }
            let error = try #require(expired)
            guard case .expired = error else { Issue.record("expected 410, got \(error)"); return }
            #expect(await model.mediaFailed(item.id, error: error))
            let fresh = try #require(slots.first { $0.item?.id == item.id }?.item?.media.master)
            #expect(fresh != master)
            let freshURL = try #require(harness.client().url(for: fresh))
            #expect(try await harness.client().download(freshURL).count > 0)
            #expect(slots.first { $0.item?.id == item.id }?.isPlaying == true, "and it keeps playing")
        }
    }

    @Test func aRotatedSecretGivesThePlayerFreshURLs() async throws {
        try await withHarness(videos: 3) { harness in
            let (model, slots) = try await feed(harness)
            await model.start()
            let item = try #require(model.current)
            let oldMaster = try #require(item.media.master)
            await harness.server.stop()
            await harness.server.rotateSecret()
            try await harness.server.start()
            let stale = try #require(harness.client().url(for: oldMaster))
            await #expect(throws: ReelAPIError.self) { try await harness.client().download(stale) }

            #expect(await model.mediaFailed(item.id, error: .forbidden(message: "bad signature")))
            let fresh = try #require(model.items.first { $0.id == item.id }?.media.master)
            #expect(fresh != oldMaster)
            #expect(try await harness.client().download(try #require(harness.client().url(for: fresh))).count > 0)
            #expect(slots.first { $0.item?.id == item.id }?.item?.media.master == fresh, "the slot showing it got the new URL")
            // A failure that is not about the URL is not a reason to refetch.
            #expect(await model.mediaFailed(item.id, error: .server(status: 503, message: "")) == false)
        }
    }
}
