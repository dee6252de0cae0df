import Foundation
import Testing
@testable import ReelHLS
@testable import ReelMedia

@Suite("Subtitles: SubRip conversion, WebVTT validation, segmenting")
struct SubtitleTests {
    private func cues(_ text: String, _ format: SubtitleParser.Format) throws -> [SubtitleCue] {
        try SubtitleParser.parse(Data(text.utf8), format: format).get()
    }

    private func problem(_ data: Data, _ format: SubtitleParser.Format) -> SubtitleProblem? {
        if case .failure(.invalidSubtitles(let problem)) = SubtitleParser.parse(data, format: format) { return problem }
        return nil
    }

    @Test func subRipBecomesWebVTT() throws {
        // BOM, CRLF, cue numbers, a comma decimal sign, a sloppy one-digit hour, non-ASCII text.
        let srt = "\u{FEFF}1\r\n00:00:01,000 --> 00:00:02,500\r\nCrème brûlée — 日本語\r\n\r\n"
            + "2\r\n0:00:03,250 --> 00:00:05,000 X1:10 X2:20 Y1:5 Y2:9\r\n<i>two</i>\r\nlines --> here\r\n\r\n"
        let parsed = try cues(srt, .subRip)
        #expect(parsed == [
            SubtitleCue(start: 1, end: 2.5, text: "Crème brûlée — 日本語"),
            SubtitleCue(start: 3.25, end: 5, text: "<i>two</i>\nlines --&gt; here"),
        ])
        #expect(WebVTTWriter.render(parsed) == """
            WEBVTT

            00:00:01.000 --> 00:00:02.500
            Crème brûlée — 日本語

            00:00:03.250 --> 00:00:05.000
            <i>two</i>
            lines --&gt; here

            """)
    }

    @Test func blocksWithoutTimingAreSkippedLikeTheWebVTTParserDoes() throws {
        let vtt = "WEBVTT\n\n##\n\n00:00:01.000 --> 00:00:02.000\nkept\n"
        #expect(try cues(vtt, .webVTT) == [SubtitleCue(start: 1, end: 2, text: "kept")])
        let srt = "1\n00:00:01,000 --> 00:00:02,000\nfirst\n\nafter a stray blank line\n\n2\n00:00:03,000 --> 00:00:04,000\nsecond\n"
        #expect(try cues(srt, .subRip).map(\.text) == ["first", "second"])
    }

    @Test func webVTTKeepsSettingsAndDropsNotesAndStyles() throws {
        let vtt = """
            WEBVTT Kind: captions
            Language: en

            NOTE written by hand

            STYLE
            ::cue { color: yellow }

            intro
            00:01.000 --> 00:02.000 align:start position:0%
            Hello <c.colorE5E5E5>world</c>

            01:00:00.000 --> 01:00:01.000
            an hour in
            """
        let parsed = try cues(vtt.replacingOccurrences(of: "\n", with: "\r"), .webVTT)  // old Mac line ends
        #expect(parsed == [
            SubtitleCue(start: 1, end: 2, settings: "align:start position:0%", text: "Hello <c.colorE5E5E5>world</c>"),
            SubtitleCue(start: 3600, end: 3601, text: "an hour in"),
        ])
    }

    @Test func malformedFilesAreRejectedWithAReason() {
        #expect(problem(Data("1\n00:00:01,000 --> 00:00:02,000\nok\n".utf8), .webVTT) == .missingHeader)
        #expect(problem(Data("WEBVTTX\n".utf8), .webVTT) == .missingHeader)
        #expect(problem(Data("WEBVTT\n\n00:00:01.000 -> 00:00:02.000\nhi\n".utf8), .webVTT) == .noCues, "no timing line: no cue")
        #expect(problem(Data("WEBVTT\n\n00:00:01.000 --> 00:00:02\nhi\n".utf8), .webVTT) == .badTiming(line: 3, text: "00:00:01.000 --> 00:00:02"))
        #expect(problem(Data("WEBVTT\n\n00:00:61.000 --> 00:01:02.000\nhi\n".utf8), .webVTT)
            == .badTiming(line: 3, text: "00:00:61.000 --> 00:01:02.000"))
        #expect(problem(Data("WEBVTT\n\n00:00:05.000 --> 00:00:02.000\nhi\n".utf8), .webVTT) == .endBeforeStart(line: 3))
        #expect(problem(Data("WEBVTT\n\nNOTE nothing else\n".utf8), .webVTT) == .noCues)
        #expect(problem(Data([0x57, 0x45, 0xFF, 0xFE, 0x00]), .webVTT) == .notUTF8)
        #expect(problem(Data("1\n00:00:01,000 --> 00:00:02,000\nok\n\n2\n00:00:03,000 --> 00:00:0x,000\nbad\n".utf8), .subRip)
            == .badTiming(line: 6, text: "00:00:03,000 --> 00:00:0x,000"))
        #expect(problem(Data("just some text\nwith no timing at all\n".utf8), .subRip) == .noCues)
        #expect(problem(Data(count: SubtitleParser.maximumBytes + 1), .subRip) == .tooLarge)
        #expect(problem(Data("\n\n".utf8), .subRip) == .noCues)
    }

    @Test func timestampsParseAndFormat() {
        #expect(SubtitleTime.parse("00:01.5") == nil, "three millisecond digits")
        #expect(SubtitleTime.parse("1:02.500") == nil, "WebVTT minutes have two digits")
        #expect(SubtitleTime.parse("123:00:00.001") == 442_800.001)
        #expect(SubtitleTime.parse("00:00:01,000", comma: true) == 1)
        #expect(SubtitleTime.format(3661.5) == "01:01:01.500")
        #expect(SubtitleTime.format(0.0004) == "00:00:00.000")
    }

    @Test func segmentsFollowTheVideoAndRepeatCuesAcrossBoundaries() throws {
        let input = [
            SubtitleCue(start: 3.5, end: 4.5, text: "spans 2|4"),
            SubtitleCue(start: 0.5, end: 1, text: "Crème brûlée — 日本語"),
            SubtitleCue(start: 4, end: 4, text: "instant"),
            SubtitleCue(start: 5, end: 9, text: "runs past the end"),
            SubtitleCue(start: 20, end: 21, text: "after the video"),
        ]
        let segments = SubtitleSegmenter.segments(input, segmentDurations: [2, 2, 1.5], firstPresentationTime: 0.066016)
        #expect(segments.count == 3)
        let map = "X-TIMESTAMP-MAP=MPEGTS:5941,LOCAL:00:00:00.000"
        #expect(segments[0] == "WEBVTT\n\(map)\n\n00:00:00.500 --> 00:00:01.000\nCrème brûlée — 日本語\n")
        #expect(segments[1] == "WEBVTT\n\(map)\n\n00:00:03.500 --> 00:00:04.500\nspans 2|4\n")
        #expect(segments[2] == """
            WEBVTT
            \(map)

            00:00:03.500 --> 00:00:04.500
            spans 2|4

            00:00:04.000 --> 00:00:04.000
            instant

            00:00:05.000 --> 00:00:09.000
            runs past the end

            """)
        // Every segment parses back as WebVTT.
        for segment in segments { #expect(throws: Never.self) { try SubtitleParser.parse(Data(segment.utf8), format: .webVTT).get() } }
        let empty = SubtitleSegmenter.segments([], segmentDurations: [2], firstPresentationTime: 0)
        #expect(empty == ["WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:0,LOCAL:00:00:00.000\n"])
    }

    @Test func firstPresentationTimeComesFromFFprobe() {
        #expect(SubtitleSegmenter.firstPresentationTime(ffprobeOutput: "0.066016\n") == 0.066016)
        #expect(SubtitleSegmenter.firstPresentationTime(ffprobeOutput: "N/A\n") == 0)
        #expect(SubtitleSegmenter.firstPresentationTime(ffprobeOutput: "") == 0)
        #expect(SubtitleSegmenter.timestampMap(firstPresentationTime: 1.4) == "X-TIMESTAMP-MAP=MPEGTS:126000,LOCAL:00:00:00.000")
    }

    @Test func languageNames() {
        #expect(SubtitleLanguage.displayName("en") == "English")
        #expect(SubtitleLanguage.displayName("pt-BR") == "Portuguese (Brazil)")
        #expect(SubtitleLanguage.displayName("en-orig") == "English (original)")
        #expect(SubtitleLanguage.hlsLanguage("en-orig") == "en")
        #expect(SubtitleLanguage.displayName("qqq") == "qqq")
        #expect(SubtitleLanguage.displayName("und") == "Subtitles")
        #expect(SubtitleLanguage.displayName("zh-Hans").hasPrefix("Chinese"), "ICU words the script its own way")
        #expect(SubtitleLanguage.uniqueNames(["en", "EN"]) == ["English [en]", "English [EN]"])
    }

    @Test func masterPlaylistListsSubtitleRenditions() throws {
        let master = MasterPlaylist(
            variants: [
                .init(bandwidth: 500_000, averageBandwidth: 400_000, width: 360, height: 640, codecs: "avc1.64001e,mp4a.40.2",
                      frameRate: 30, uri: "360p/index.m3u8"),
            ],
            subtitles: [
                .init(name: "English", language: "en", uri: "subtitles/en/index.m3u8"),
                .init(name: "Português \"BR\"", language: "pt-BR", autoselect: false, uri: "subtitles/pt-BR/index.m3u8"),
            ]
        )
        let text = master.render()
        #expect(text == """
            #EXTM3U
            #EXT-X-VERSION:7
            #EXT-X-INDEPENDENT-SEGMENTS
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",LANGUAGE="en",DEFAULT=NO,AUTOSELECT=YES,URI="subtitles/en/index.m3u8"
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="Português 'BR'",LANGUAGE="pt-BR",DEFAULT=NO,AUTOSELECT=NO,URI="subtitles/pt-BR/index.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=500000,AVERAGE-BANDWIDTH=400000,RESOLUTION=360x640,CODECS="avc1.64001e,mp4a.40.2",FRAME-RATE=30.000,SUBTITLES="subs"
            360p/index.m3u8

            """)
        let parsed = try MasterPlaylist.parse(text)
        #expect(parsed.subtitles.map(\.language) == ["en", "pt-BR"] && parsed.subtitles[1].name == "Português 'BR'")
        #expect(parsed.variants == master.variants)
        #expect(!MasterPlaylist(variants: master.variants).render().contains("SUBTITLES"), "no group without renditions")
    }
}
