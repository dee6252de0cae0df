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

/// Stories against the live server: the tray with your own first, the viewer's intents, and
/// who saw your story.
@Suite(.serialized) @MainActor struct StoriesModelTests {
    /// The owner's story of two items and an archived account's of one.
    func fileStories(_ harness: Harness) async throws {
        let ids = harness.server.videoIDs
        let now = Date()
        let owner = try #require(try await harness.server.store.user(name: "owner"))
        for (index, id) in [ids[0], ids[1]].enumerated() {
            let at = now.addingTimeInterval(Double(index - 2) * 60)
            try await harness.server.store.fileStory(postID: id, StoryFiling(author: "owner", userID: owner.id, postedAt: at, expiresAt: at + 86_400, archived: false))
        }
        try await harness.server.store.fileStory(postID: ids[2], StoryFiling(author: "natgeo", userID: nil, postedAt: now - 7200, expiresAt: nil, archived: true))
    }

    @Test func yourOwnStoryLeadsTheTrayAndTheViewerPlaysItsItems() async throws {
        try await withHarness(videos: 3) { harness in
            try await fileStories(harness)
            let model = StoriesModel(context: try await harness.context())
            await model.loadTray()
            #expect(model.tray.map(\.user) == ["owner", "natgeo"] && model.myStory?.user == "owner")

            await model.open(user: "owner")
            #expect(model.isOpen && model.isMine && model.segmentCount == 2 && model.segmentIndex == 0)
            let first = try #require(model.currentItem?.id)
            #expect(first == harness.server.videoIDs[0])
            #expect(model.isPaused, "waits for its first frame")
            await model.firstFrameShown(first)
            harness.clock.advance(by: 1)
            await model.tick()
            #expect(model.progress > 0 && !model.isPaused)

            // Holding pauses: time passes, progress does not.
            model.holdBegan()
            let held = model.progress
            harness.clock.advance(by: 1)
            await model.tick()
            #expect(model.progress == held && model.isPaused)
            #expect(model.isHeld)
            model.holdEnded()
            harness.clock.advance(by: 0.5)
            await model.tick()
            #expect(model.progress > held && !model.isHeld)

            // The app in the background: time passes, the story waits.
            model.enterBackground()
            let away = model.progress
            harness.clock.advance(by: 30)
            await model.tick()
            #expect(model.progress == away && model.isPaused && !model.isHeld)
            model.enterForeground()
            harness.clock.advance(by: 0.5)
            await model.tick()
            #expect(model.progress > away && !model.isPaused)

            await model.tapRight()
            #expect(model.segmentIndex == 1 && model.currentItem?.id == harness.server.videoIDs[1])
            await model.tapLeft()
            #expect(model.segmentIndex == 0)
            await model.swipeLeft()
            #expect(model.currentUser == "natgeo" && !model.isMine)
            await model.swipeRight()
            #expect(model.currentUser == "owner")
            model.swipeDown()
            #expect(!model.isOpen && model.currentItem == nil)
        }
    }

    @Test func aMembersSeenAndHeartReachTheOwnerWhoSeesWhoWatched() async throws {
        try await withHarness(videos: 3) { harness in
            try await fileStories(harness)
            let mia = try await harness.member()
            let miaContext = try await harness.context(await mia.credentials, files: InMemoryFileSystem())
            let watching = StoriesModel(context: miaContext)
            await watching.loadTray()
            #expect(watching.tray.first?.user == "owner" && watching.myStory == nil)
            await watching.open(user: "owner")
            let item = try #require(watching.currentItem?.id)
            await watching.firstFrameShown(item)
            await watching.toggleLike()
            #expect(watching.isLiked && watching.notice == nil)
            watching.close()
            await watching.settle()

            let owner = StoriesModel(context: try await harness.context())
            await owner.loadTray()
            await owner.open(user: "owner")
            #expect(owner.currentItem?.id == item)
            await owner.loadViewers()
            #expect(owner.viewers.map(\.user) == ["mia"] && owner.viewers.first?.liked == true)
        }
    }

    @Test func theOwnerKeepsAnItemAsAPostAndDeletesAnother() async throws {
        try await withHarness(videos: 3) { harness in
            try await fileStories(harness)
            let model = StoriesModel(context: try await harness.context())
            await model.loadTray()
            await model.open(user: "owner")
            await model.keepAsPost()
            #expect(model.notice == "Kept as a post.")
            await model.tapRight()
            let doomed = try #require(model.currentItem?.id)
            await model.deleteCurrent()
            #expect(!model.isOpen)
            await #expect(throws: ReelAPIError.self) { try await harness.client().video(id: doomed) }
            #expect(model.tray.first { $0.user == "owner" }?.itemsCount == 1)
        }
    }

    @Test func aPersonWithNothingLiveLeavesTheTrayWhenOpened() async throws {
        try await withHarness(videos: 3) { harness in
            try await fileStories(harness)
            let model = StoriesModel(context: try await harness.context())
            await model.loadTray()
            try await harness.client().deleteStory(itemID: harness.server.videoIDs[2])
            await model.open(user: "natgeo")
            #expect(!model.isOpen && model.error?.kind == .notFound)
            #expect(model.tray.map(\.user) == ["owner"])
        }
    }
}
