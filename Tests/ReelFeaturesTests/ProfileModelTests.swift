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

/// Profile against the live server: password, keys, preferences, what For You was told.
@Suite(.serialized) @MainActor struct ProfileModelTests {
    @Test func aPasswordIsCheckedHereFirstThenByTheServer() async throws {
        try await withHarness(videos: 1) { harness in
            let model = ProfileModel(context: try await harness.context())
            let before = await harness.network.log.count
            #expect(await model.changePassword(current: LiveServer.password, new: "new password 1", confirmation: "new password 2") == false)
            #expect(model.passwordMessage == "The new passwords do not match.")
            #expect(await model.changePassword(current: LiveServer.password, new: "short", confirmation: "short") == false)
            #expect(model.passwordMessage == "The new password must be 8 to 1024 characters.")
            #expect(await harness.network.log.count == before, "neither reached the server")

            #expect(await model.changePassword(current: "not it", new: "new password 1", confirmation: "new password 1") == false)
            #expect(model.passwordMessage == "The current password is not right.")
            #expect(await model.changePassword(current: LiveServer.password, new: "new password 1", confirmation: "new password 1"))
            #expect(model.passwordMessage == "Password changed. Your other devices are signed out.")
            try await harness.client(ReelCredentials.none).login(username: "owner", password: "new password 1")
        }
    }

    @Test func tooManyPasswordAttemptsAreRateLimited() async throws {
        try await withHarness(videos: 1, configure: { $0[AccountSettings.self].loginAttemptsPerAccount = 2 }) { harness in
            let model = ProfileModel(context: try await harness.context())
            for _ in 0..<2 { _ = await model.changePassword(current: "wrong", new: "new password 1", confirmation: "new password 1") }
            #expect(await model.changePassword(current: LiveServer.password, new: "new password 1", confirmation: "new password 1") == false)
            #expect(model.passwordMessage?.hasPrefix("Too many requests. Try again in") == true)
        }
    }

    @Test func aNewKeyIsShownOnceWorksAndStopsWorkingWhenRevoked() async throws {
        try await withHarness(videos: 1) { harness in
            let model = ProfileModel(context: try await harness.context())
            await model.load()
            #expect(model.keys.map(\.name) == ["reelkit"])
            await model.createKey(named: "  ")
            #expect(model.error?.kind == .rejected && model.newKeySecret == nil)
            await model.createKey(named: "iPad")
            let secret = try #require(model.newKeySecret)
            #expect(model.keys.first?.name == "iPad" && !model.keys.contains { $0.prefix == secret })
            #expect(try await harness.client(.apiKey(secret)).me().name == "owner")
            model.dismissNewKey()
            #expect(model.newKeySecret == nil)

            await model.revokeKey(try #require(model.keys.first?.id))
            #expect(model.keys.map(\.name) == ["reelkit"])
            await #expect(throws: ReelAPIError.self) { try await harness.client(.apiKey(secret)).me() }
        }
    }

    @Test func preferencesStayOnTheDeviceAndLowDataModeSavesData() async throws {
        try await withHarness(videos: 1) { harness in
            let context = try await harness.context()
            let model = ProfileModel(context: context)
            #expect(model.preferences == AppPreferences() && model.preferences.startMuted)
            #expect(!model.preferences.savesData(lowDataMode: false) && model.preferences.savesData(lowDataMode: true))
            model.preferences.followsLowDataMode = false
            model.preferences.showCaptions = true
            let reopened = ProfileModel(context: context)
            #expect(reopened.preferences.showCaptions && !reopened.preferences.savesData(lowDataMode: true))
            reopened.preferences.dataSaver = true
            #expect(ProfileModel(context: context).preferences.savesData(lowDataMode: false))
        }
    }

    @Test func whatForYouWasToldCanBeUndone() async throws {
        try await withHarness(videos: 3) { harness in
            let context = try await harness.context()
            let feed = FeedModel(context: context, slots: [])
            await feed.start()
            let skipped = try #require(feed.items.last?.id)
            await feed.notInterested(skipped)
            await feed.hideUploader(of: try #require(feed.current?.id))
            let model = ProfileModel(context: context)
            await model.load()
            #expect(model.notInterested.map(\.postID) == [skipped] && model.hiddenUploaders.map(\.uploader) == ["Up"])

            await model.unhide(uploader: "Up")
            await model.undoNotInterested(skipped)
            #expect(model.hiddenUploaders.isEmpty && model.notInterested.isEmpty && model.error == nil)
            await feed.reload()
            #expect(Set(feed.items.map(\.id)).count == 3, "every post is back in the feed")
            #expect(model.libraries.count == 1)
        }
    }
}
