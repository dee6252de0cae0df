import Foundation
import ReelKit
import ReelModels
import ReelTestSupport
import Testing
import ReelTestFiles
import ReelKitTestDoubles

// The README's "ReelKit for iOS developers" sample, compiled here so it stays true.
// README-SAMPLE-BEGIN
/// What an app's feed screen owns. On iOS, `Slot` is `AVPlayerSlot` (ReelKitAVFoundation).
@MainActor
final class FeedScreenModel<Slot: PlayerSlot> where Slot.Item == APIVideo {
    let session: FeedSession<Slot>
    let state: OptimisticState

    init(server: URL, apiKey: String, slots: [Slot], caches: URL) {
        let client = ReelClient(baseURL: server, credentials: .apiKey(apiKey))
        let files = LocalFileSystem(root: caches)
        let cache = MediaCache(disk: DiskCache(fileSystem: files))   // 50 items / 100 MB in memory, 24 h on disk
        state = OptimisticState(sender: client, queue: OfflineQueue(fileSystem: files))
        session = FeedSession(client: client, pool: PlayerPool(slots: slots),
                              prefetcher: MediaPrefetcher(client: client, cache: cache), state: state)
    }

    func appeared() async throws { try await session.start() }                 // page 1, fill the pool
    func settled(on index: Int) async throws { try await session.move(to: index) }
    func doubleTapped() async {
        if let id = session.current?.id { await state.toggleFavorite(videoID: id) }  // optimistic
    }
    func networkCameBack() async { await state.replay() }                      // offline queue, in order
}
// README-SAMPLE-END

@Suite struct ReadmeSampleTests {
    @Test @MainActor func theSampleWiresAPoolOfThree() throws {
        let caches = TemporaryFolder.fresh("reelkit-readme")
        let model = FeedScreenModel(
            server: try #require(URL(string: "http://127.0.0.1:8080")), apiKey: "rh_example",
            slots: [RecordingSlot(), RecordingSlot(), RecordingSlot()], caches: caches
        )
        #expect(model.session.pool.slots.count == 3)
        #expect(model.session.window.configuration == FeedWindowConfiguration(poolSize: 3))
    }

    /// The README shows the block between the markers verbatim.
    @Test func theReadmeShowsTheCompiledSample() throws {
        let here = URL(fileURLWithPath: #filePath)
        let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let source = try String(contentsOf: here, encoding: .utf8)
        let begin = try #require(source.range(of: "// README-SAMPLE-BEGIN\n"))
        let end = try #require(source.range(of: "// README-SAMPLE-END"))
        let sample = String(source[begin.upperBound..<end.lowerBound])
        #expect(readme.contains(sample), "README.md's ReelKit sample differs from Tests/ReelKitLiveTests/ReadmeSampleTests.swift")
    }
}
