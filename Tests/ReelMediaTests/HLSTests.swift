import Foundation
import Testing
@testable import ReelHLS
@testable import ReelMedia

@Suite("HLS playlists")
struct HLSTests {
    @Test func parsesFFmpegOutput() throws {
        let playlist = try MediaPlaylist.parse(Fixture.text("hls/ffmpeg51_720p_index.m3u8"))
        #expect(playlist.version == 7 && playlist.targetDuration == 2 && playlist.mediaSequence == 0)
        #expect(playlist.playlistType == "VOD" && playlist.independentSegments && playlist.endList)
        #expect(playlist.mapURI == "init_3.mp4" && playlist.key == nil)
        #expect(playlist.segments.map(\.duration) == [2, 2, 2, 2, 1])
        #expect(playlist.segments.first?.uri == "seg_00000.m4s" && playlist.segments.last?.uri == "seg_00004.m4s")
        let single = try MediaPlaylist.parse(Fixture.text("hls/ffmpeg51_single_rung_index.m3u8"))
        #expect(single.mapURI == "init.mp4" && single.segments.count == 2)
    }

    @Test func rendersKeyAfterMap() throws {
        var playlist = try MediaPlaylist.parse(Fixture.text("hls/ffmpeg51_720p_index.m3u8"))
        playlist.segments = Array(playlist.segments.prefix(2))
        playlist.key = HLSKey(method: "AES-128", uri: "../key")
        #expect(playlist.render() == """
            #EXTM3U
            #EXT-X-VERSION:7
            #EXT-X-TARGETDURATION:2
            #EXT-X-MEDIA-SEQUENCE:0
            #EXT-X-PLAYLIST-TYPE:VOD
            #EXT-X-INDEPENDENT-SEGMENTS
            #EXT-X-MAP:URI="init_3.mp4"
            #EXT-X-KEY:METHOD=AES-128,URI="../key"
            #EXTINF:2.000000,
            seg_00000.m4s
            #EXTINF:2.000000,
            seg_00001.m4s
            #EXT-X-ENDLIST

            """)
    }

    @Test func ffmpegPlaylistRoundTripsByteForByte() throws {
        let text = try Fixture.text("hls/ffmpeg51_720p_index.m3u8")
        #expect(try MediaPlaylist.parse(text).render() == text)
    }

    @Test func roundTripWithKeyAndIV() throws {
        let playlist = MediaPlaylist(
            targetDuration: 3, mediaSequence: 7, mapURI: "init.mp4",
            key: HLSKey(method: "AES-128", uri: "k?a=1,b=2", iv: "0x00000000000000000000000000000007"),
            segments: [.init(duration: 2.033333, uri: "a.m4s"), .init(duration: 0.5, uri: "b.m4s")]
        )
        #expect(try MediaPlaylist.parse(playlist.render()) == playlist)
    }

    @Test func targetDurationIsCeilingOfLongest() {
        let playlist = MediaPlaylist(targetDuration: 2, segments: [.init(duration: 2.0333, uri: "a")])
        #expect(playlist.render().contains("#EXT-X-TARGETDURATION:3\n"))
    }

    @Test(arguments: [
        "", "hello", "#EXTM3U\n#EXTINF:2.0,\n", "#EXTM3U\n#EXT-X-TARGETDURATION:x\n",
        "#EXTM3U\n#EXTINF:2.0,\na.m4s\n", "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:abc,\na.m4s\n",
        "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n", "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-MAP:URI=\"open\n",
    ])
    func rejectsGarbageMediaPlaylists(text: String) {
        #expect(throws: HLSError.self) { try MediaPlaylist.parse(text) }
    }

    @Test func masterRenderAndRoundTrip() throws {
        let master = MasterPlaylist(variants: [
            .init(bandwidth: 520_000, averageBandwidth: 410_000, width: 240, height: 426, codecs: "avc1.64001e,mp4a.40.2", frameRate: 30, uri: "240p/index.m3u8"),
            .init(bandwidth: 7_100_000, averageBandwidth: 6_050_000, width: 1080, height: 1920, codecs: "avc1.640028,mp4a.40.2", frameRate: 30000.0 / 1001, uri: "1080p/index.m3u8"),
        ])
        #expect(master.render() == """
            #EXTM3U
            #EXT-X-VERSION:7
            #EXT-X-INDEPENDENT-SEGMENTS
            #EXT-X-STREAM-INF:BANDWIDTH=520000,AVERAGE-BANDWIDTH=410000,RESOLUTION=240x426,CODECS="avc1.64001e,mp4a.40.2",FRAME-RATE=30.000
            240p/index.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=7100000,AVERAGE-BANDWIDTH=6050000,RESOLUTION=1080x1920,CODECS="avc1.640028,mp4a.40.2",FRAME-RATE=29.970
            1080p/index.m3u8

            """)
        var expected = master
        expected.variants[1].frameRate = 29.97
        #expect(try MasterPlaylist.parse(master.render()) == expected)
    }

    @Test(arguments: ["", "#EXTM3U\n", "#EXTM3U\n#EXT-X-STREAM-INF:RESOLUTION=1x1\nv.m3u8\n",
                      "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\na.m4s\n", "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=5\n"])
    func rejectsGarbageMasters(text: String) {
        #expect(throws: HLSError.self) { try MasterPlaylist.parse(text) }
    }

    @Test func bandwidth() {
        let measured = BandwidthMeter.measure(segmentBytes: [250_000, 500_000, 100_000], durations: [2, 2, 1])
        #expect(measured.peak == 2_000_000 && measured.average == 1_360_000)
        let withInit = BandwidthMeter.measure(segmentBytes: [250_000], durations: [2], initSectionBytes: 1_000)
        #expect(withInit.peak == 1_000_000 && withInit.average == 1_004_000)
        #expect(BandwidthMeter.measure(segmentBytes: [], durations: []) == (0, 0))
        #expect(BandwidthMeter.measure(segmentBytes: [10], durations: [0]) == (0, 0))
    }
}

@Suite("ffmpeg -progress parsing")
struct ProgressTests {
    @Test func realFFmpegOutput() throws {
        var parser = FFmpegProgressParser(duration: 3)
        let fractions = try Fixture.text("progress_ffmpeg51.txt").split(separator: "\n").compactMap { parser.consume(line: String($0)) }
        #expect(fractions == [0.08, 1.0])
    }

    @Test func neverBackwardsAndNeverDoneBeforeEnd() {
        var parser = FFmpegProgressParser(duration: 10)
        #expect(parser.consume(line: "out_time_us=N/A") == nil)
        #expect(parser.consume(line: "progress=continue") == nil)
        _ = parser.consume(line: "out_time_ms=5000000")
        #expect(parser.consume(line: "progress=continue\r") == 0.5)
        _ = parser.consume(line: "out_time_us=4000000")
        #expect(parser.consume(line: "progress=continue") == 0.5)
        _ = parser.consume(line: "out_time_us=12000000")
        #expect(parser.consume(line: "progress=continue") == 0.999)
        #expect(parser.consume(line: "progress=end") == 1)
    }

    @Test func unknownDurationOnlyReportsEnd() {
        var parser = FFmpegProgressParser(duration: 0)
        _ = parser.consume(line: "out_time_us=1000")
        #expect(parser.consume(line: "progress=continue") == nil)
        #expect(parser.consume(line: "progress=end") == 1)
    }
}
