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

/// The pieces under every model: the manual clock, the error words, the slot eraser.
@Suite struct SupportTests {
    @Test func theManualClockWakesSleepersInDeadlineOrderOnlyWhenTimePasses() async throws {
        let clock = ManualModelClock()
        let order = OrderLog()
        let late = Task { try await clock.sleep(seconds: 2); await order.add("late") }
        let early = Task { try await clock.sleep(seconds: 1); await order.add("early") }
        while clock.sleeperCount < 2 { await Task.yield() }
        clock.advance(by: 0.5)
        try await Task.sleep(for: .milliseconds(20))
        #expect(await order.names.isEmpty)
        clock.advance(by: 2)
        try await early.value
        try await late.value
        #expect(await order.names.count == 2 && clock.sleeperCount == 0)
    }

    @Test func aCancelledSleeperWakesAtOnceWithCancellation() async throws {
        let clock = ManualModelClock()
        let sleeper = Task { try await clock.sleep(seconds: 60) }
        while clock.sleeperCount < 1 { await Task.yield() }
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 0)
    }

    @Test func everyAPIErrorBecomesWordsAPersonCanActOn() {
        #expect(ScreenError(.offline("no route")).kind == .offline)
        #expect(ScreenError(.unauthorized(code: "unauthorized", message: "")).kind == .signedOut)
        #expect(ScreenError(.rateLimited(retryAfter: 12)) == ScreenError(.rateLimited(retryAfter: 12), "Too many requests. Try again in 12 s."))
        #expect(ScreenError(.rateLimited(retryAfter: nil)).message == "Too many requests. Try again in a moment.")
        #expect(ScreenError(.notFound(message: "")).message == "This is no longer here.")
        #expect(ScreenError(.forbidden(message: "owners only")) == ScreenError(.notAllowed, "owners only"))
        #expect(ScreenError(.rejected(status: 400, code: "bad_request", message: "rating must be 0 to 5")).message == "rating must be 0 to 5")
        #expect(ScreenError(.server(status: 503, message: "x")).message == "The server failed (503). Try again later.")
        #expect(ScreenError(.decoding("x")).kind == .server)
    }

    @Test @MainActor func theSlotEraserPassesEveryCallToItsPlayer() {
        let player = RecordingSlot()
        let slot = AnyPlayerSlot(player)
        let video = SampleVideo.make(id: 7)
        slot.load(video)
        slot.play()
        #expect(player.item?.id == 7 && player.isPlaying && player.loads == 1)
        slot.pause()
        #expect(!player.isPlaying)
        slot.unload()
        #expect(player.item == nil && (slot.base as? RecordingSlot) === player)
    }

    @Test func anAccountsFolderNameIsSafeWhateverTheNameHolds() {
        let name = AppEnvironment.folderName(server: URL(string: "https://reels.example.org:8443/")!, user: "../mia/..")
        #expect(name == "reels.example.org-8443-.._mia_..")
        #expect(!name.contains("/"))
    }
}

actor OrderLog {
    var names: [String] = []
    func add(_ name: String) { names.append(name) }
}

enum SampleVideo {
    static func make(id: Int64) -> APIVideo {
        APIVideo(
            id: id, folderName: "v\(id)", isFavorited: false, rating: 0, description: nil, tags: [], flags: [], shortcode: nil, datePosted: nil,
            uploader: nil, username: nil, dateAdded: nil, kind: .video, sourceUrl: nil, duration: 4, width: 240, height: 426, position: nil,
            media: APIMedia(master: "/media/t/\(id)/master.m3u8", encrypted: true, poster: nil, thumbnail: nil, download: nil, prefetch: nil, images: [], expiresAt: nil)
        )
    }
}
