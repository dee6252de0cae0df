import Foundation
import ReelKit
import ReelHLS
import Testing

@Suite struct PlaybackTests {
    /// A master playlist as the server writes it (ReelMedia renders it; ReelKit reads it back).
    static let master = MasterPlaylist(variants: [
        .init(bandwidth: 400_000, averageBandwidth: 300_000, width: 240, height: 426, codecs: "avc1.64000d,mp4a.40.2", frameRate: 30, uri: "240p/index.m3u8"),
        .init(bandwidth: 900_000, averageBandwidth: 700_000, width: 360, height: 640, codecs: "avc1.64001e,mp4a.40.2", frameRate: 30, uri: "360p/index.m3u8"),
        .init(bandwidth: 2_200_000, averageBandwidth: 1_800_000, width: 540, height: 960, codecs: "avc1.64001f,mp4a.40.2", frameRate: 30, uri: "540p/index.m3u8"),
        .init(bandwidth: 4_500_000, averageBandwidth: 3_600_000, width: 720, height: 1280, codecs: "avc1.64001f,mp4a.40.2", frameRate: 30, uri: "720p/index.m3u8"),
    ]).render()

    @Test func selectionFollowsThroughputWithHeadroom() throws {
        let master = try MasterPlaylist.parse(Self.master)
        let selector = BitrateSelector()
        #expect(selector.select(from: master, throughput: nil)?.height == 426, "unknown: the prefetched lowest rung")
        #expect(selector.select(from: master, throughput: 10_000_000)?.height == 1280)
        #expect(selector.select(from: master, throughput: 4_000_000)?.height == 960, "0.7 × 4 Mbit/s = 2.8 fits 2.2, not 4.5")
        #expect(selector.select(from: master, throughput: 100_000)?.height == 426, "nothing fits: still the lowest")
        #expect(selector.select(from: master, throughput: 10_000_000, maxShortEdge: 540)?.height == 960)
    }

    @Test func lowDataModeCapsTheRung() throws {
        let master = try MasterPlaylist.parse(Self.master)
        let chosen = BitrateSelector().select(from: master, throughput: 50_000_000, lowDataMode: true)
        #expect(chosen?.height == 640)
        #expect(chosen?.uri == "360p/index.m3u8")
    }

    @Test func throughputIsASmoothedByteWeightedAverage() {
        var estimator = ThroughputEstimator(smoothing: 0.5, minimumBytes: 1_000)
        estimator.record(bytes: 500, seconds: 0.001)
        #expect(estimator.bitsPerSecond == nil, "tiny transfers measure latency, not bandwidth")
        estimator.record(bytes: 1_048_576, seconds: 1)
        #expect(estimator.bitsPerSecond == 8_388_608)
        estimator.record(bytes: 1_048_576, seconds: 2)
        #expect(estimator.bitsPerSecond == 8_388_608 - 0.5 * 4_194_304)
    }

    @Test func startupFilesResolveAgainstTheSignedPlaylist() throws {
        let playlist = try MediaPlaylist.parse("""
        #EXTM3U
        #EXT-X-VERSION:7
        #EXT-X-TARGETDURATION:2
        #EXT-X-MAP:URI="init.mp4"
        #EXT-X-KEY:METHOD=AES-128,URI="../key"
        #EXTINF:2.000000,
        seg_00000.m4s
        #EXTINF:2.000000,
        seg_00001.m4s
        #EXT-X-ENDLIST
        """)
        let url = try #require(URL(string: "http://host:8080/media/TOKEN/5/240p/index.m3u8"))
        let files = StartupFiles(playlist: playlist, playlistURL: url)
        #expect(files.initSection?.absoluteString == "http://host:8080/media/TOKEN/5/240p/init.mp4")
        #expect(files.segments.map(\.absoluteString) == ["http://host:8080/media/TOKEN/5/240p/seg_00000.m4s"])
        #expect(files.key?.absoluteString == "http://host:8080/media/TOKEN/5/key", "the key inherits the token too")
    }

    @Test func resumePositionsAreRestoredAndTheEndResetsThem() async {
        let files = InMemoryFileSystem()
        let positions = ResumePositions(fileSystem: files)
        #expect(await positions.record(42.5, duration: 120, for: 7) == 42.5)
        #expect(await positions.record(1, duration: 120, for: 8) == nil, "a peek is not worth resuming")
        #expect(await ResumePositions(fileSystem: files).position(for: 7) == 42.5, "stored across launches")
        #expect(await positions.record(119, duration: 120, for: 7) == nil, "reaching the end resets")
        #expect(await positions.position(for: 7) == nil)
        await positions.record(30, duration: nil, for: 9)
        await positions.finished(9)
        #expect(await ResumePositions(fileSystem: files).position(for: 9) == nil)
    }
}
