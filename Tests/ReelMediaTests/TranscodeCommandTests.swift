import Foundation
import Testing
@testable import ReelMedia

/// Expected arrays were run by hand with ffmpeg 5.1 on lavfi clips (see the module report):
/// every rung got 2 s segments with keyframes at the same times, poster and thumb were written.
@Suite("ffmpeg command lines")
struct TranscodeCommandTests {
    @Test func portraitLadderExactArguments() throws {
        let plan = try LadderPlanner.plan(for: Fixture.probe("portrait_1080x1920_audio.mp4"))
        let args = TranscodeCommand.arguments(input: "/in/clip.mp4", plan: plan, outputDirectory: "/out/", options: TranscodeOptions())
        let graph = "[0:v]split=6[s0][s1][s2][s3][s4][s5];"
            + "[s0]scale=w=240:h=426,setsar=1,fps=30,format=yuv420p[v0];"
            + "[s1]scale=w=360:h=640,setsar=1,fps=30,format=yuv420p[v1];"
            + "[s2]scale=w=540:h=960,setsar=1,fps=30,format=yuv420p[v2];"
            + "[s3]scale=w=720:h=1280,setsar=1,fps=30,format=yuv420p[v3];"
            + "[s4]scale=w=1080:h=1920,setsar=1,fps=30,format=yuv420p[v4];"
            + "[s5]trim=start=1,trim=end_frame=1,setpts=PTS-STARTPTS,scale=w=1080:h=1920,setsar=1,split=2[poster][thumbsrc];"
            + "[thumbsrc]scale=w=320:h=568[thumb]"
        var expected = ["-hide_banner", "-loglevel", "error", "-nostats", "-progress", "pipe:1", "-y", "-i", "file:/in/clip.mp4",
                        "-filter_complex", graph]
        for index in 0..<5 { expected += ["-map", "[v\(index)]", "-map", "0:a:0"] }
        expected += ["-c:v", "libx264", "-preset", "veryfast"]
        let rates = [(400_000, 600_000, 1_200_000, "3.0"), (800_000, 1_200_000, 2_400_000, "3.0"),
                     (2_000_000, 3_000_000, 6_000_000, "3.1"), (3_000_000, 4_500_000, 9_000_000, "3.1"),
                     (6_000_000, 9_000_000, 18_000_000, "4.0")]
        for (index, rate) in rates.enumerated() {
            expected += ["-b:v:\(index)", String(rate.0), "-maxrate:v:\(index)", String(rate.1), "-bufsize:v:\(index)", String(rate.2),
                         "-profile:v:\(index)", "high", "-level:v:\(index)", rate.3, "-g:v:\(index)", "60", "-keyint_min:v:\(index)", "60"]
        }
        // Keyframes at 0, 0.5, 1, then every 2 s from 2 (the lead segments 0.5, 0.5, 1 s); the
        // muxer's first segment is the first lead one.
        let keyframes = "expr:if(eq(n_forced,1),gte(t,0.5),if(eq(n_forced,2),gte(t,1),gte(t,(n_forced-2)*2)))"
        expected += ["-sc_threshold", "0", "-force_key_frames", keyframes, "-c:a", "aac", "-ac", "2", "-ar", "48000",
                     "-b:a:0", "96000", "-b:a:1", "96000", "-b:a:2", "128000", "-b:a:3", "128000", "-b:a:4", "128000",
                     "-f", "hls", "-hls_time", "2", "-hls_init_time", "0.5", "-hls_playlist_type", "vod", "-hls_flags", "independent_segments",
                     "-hls_segment_type", "fmp4", "-hls_fmp4_init_filename", "init.mp4",
                     "-hls_segment_filename", "/out/%v/seg_%05d.m4s",
                     "-var_stream_map", "v:0,a:0,name:240p v:1,a:1,name:360p v:2,a:2,name:540p v:3,a:3,name:720p v:4,a:4,name:1080p",
                     "/out/%v/index.m3u8",
                     "-map", "[poster]", "-frames:v", "1", "-q:v", "3", "/out/poster.jpg",
                     "-map", "[thumb]", "-frames:v", "1", "-q:v", "3", "/out/thumb.jpg"]
        #expect(args == expected)
        #expect(!args.contains("-master_pl_name"))
    }

    @Test func withoutQuickStartEverySegmentIsOnTheTwoSecondGrid() throws {
        let plan = try LadderPlanner.plan(for: Fixture.probe("portrait_1080x1920_audio.mp4"), quickStart: false)
        let args = TranscodeCommand.arguments(input: "/in/clip.mp4", plan: plan, outputDirectory: "/out", options: TranscodeOptions())
        #expect(args.firstIndex(of: "-force_key_frames").map { args[$0 + 1] } == "expr:gte(t,n_forced*2)")
        #expect(!args.contains("-hls_init_time"))
    }

    @Test func keyframesFollowTheLeadSegmentsThenTheGrid() throws {
        var plan = try LadderPlanner.plan(for: Fixture.probe("portrait_1080x1920_audio.mp4"))
        plan.leadSegments = [0.5]   // ends off the grid: keyframes 0, 0.5, 2, 4 …
        #expect(TranscodeCommand.keyframeExpression(plan) == "expr:if(eq(n_forced,1),gte(t,0.5),gte(t,(n_forced-1)*2))")
        plan.leadSegments = [1, 1]  // ends on it: 0, 1, 2, 4 …
        #expect(TranscodeCommand.keyframeExpression(plan) == "expr:if(eq(n_forced,1),gte(t,1),gte(t,(n_forced-1)*2))")
        plan.leadSegments = [5]     // past two grid steps: 0, 5, 6, 8 …
        #expect(TranscodeCommand.keyframeExpression(plan) == "expr:if(eq(n_forced,1),gte(t,5),gte(t,(n_forced+1)*2))")
        let args = TranscodeCommand.arguments(input: "/in/clip.mp4", plan: plan, outputDirectory: "/out", options: TranscodeOptions())
        #expect(args.firstIndex(of: "-hls_init_time").map { args[$0 + 1] } == "5")
    }

    @Test func silentTrackForSourcesWithoutAudio() throws {
        var plan = try LadderPlanner.plan(for: Fixture.probe("fps60_1280x720.mp4"))
        plan.duration = 7
        let args = TranscodeCommand.arguments(input: "/in/a.mp4", plan: plan, outputDirectory: "/out", options: TranscodeOptions(threads: 2))
        #expect(Array(args[7..<15]) == ["-i", "file:/in/a.mp4", "-f", "lavfi", "-t", "7", "-i", "anullsrc=channel_layout=stereo:sample_rate=48000"])
        #expect(args.filter { $0 == "1:a:0" }.count == 4 && !args.contains("0:a:0"))
        #expect(args.joined(separator: " ").contains("fps=60,format"))
        #expect(args.firstIndex(of: "-threads").map { args[$0 + 1] } == "2")
        let gop = args.firstIndex(of: "-g:v:3").map { args[$0 + 1] }
        #expect(gop == "120")
    }

    @Test func filterPrefixGoesBeforeSplit() throws {
        let plan = try LadderPlanner.plan(for: Fixture.probe("lowres_160x120.mp4"))
        let graph = TranscodeCommand.filterGraph(plan: plan, prefix: "eq=gamma=1.1")
        #expect(graph.hasPrefix("[0:v]eq=gamma=1.1,split=2[s0][s1];[s0]scale=w=160:h=120,setsar=1,fps=25,format=yuv420p[v0];"))
        #expect(graph.hasSuffix("[thumbsrc]scale=w=160:h=120[thumb]"))
    }

    @Test func downloadRemux() {
        #expect(TranscodeCommand.downloadArguments(rungPlaylist: "/s/720p/index.m3u8", output: "/s/download.mp4") == [
            "-hide_banner", "-loglevel", "error", "-nostats", "-y", "-i", "file:/s/720p/index.m3u8",
            "-map", "0:v:0", "-map", "0:a:0?", "-c", "copy", "-movflags", "+faststart", "file:/s/download.mp4",
        ])
    }

    @Test func initSegmentNamesMatchFFmpeg() {
        #expect(TranscodeCommand.initSegmentName(rungIndex: 3, rungCount: 5) == "init_3.mp4")
        #expect(TranscodeCommand.initSegmentName(rungIndex: 0, rungCount: 1) == "init.mp4")
    }

    @Test func numberFormatting() {
        #expect(TranscodeCommand.rateText(30000.0 / 1001) == "30000/1001")
        #expect(TranscodeCommand.rateText(25) == "25")
        #expect(TranscodeCommand.seconds(0.5) == "0.5" && TranscodeCommand.seconds(12.3456) == "12.346")
        #expect(TranscodeCommand.thumbnailSize(width: 1920, height: 1080) == (320, 180))
    }
}

@Suite("Image variants and EXIF orientation")
struct ImageCommandTests {
    @Test func rotatedPhotoExactArguments() {
        let (args, variants) = ImageCommand.plan(input: "/in/p.jpg", sourceWidth: 4032, sourceHeight: 3024, orientation: 6, outputDirectory: "/out", prefix: "image1")
        #expect(variants == [
            ImageVariantPlan(path: "image1_320.jpg", width: 320, height: 426),
            ImageVariantPlan(path: "image1_720.jpg", width: 720, height: 960),
            ImageVariantPlan(path: "image1_1080.jpg", width: 1080, height: 1440),
        ])
        var expected = ["-hide_banner", "-loglevel", "error", "-nostats", "-y", "-noautorotate", "-i", "file:/in/p.jpg", "-filter_complex",
                        "[0:v]transpose=1,split=3[s0][s1][s2];[s0]scale=w=320:h=426:flags=lanczos,setsar=1[o0];"
                            + "[s1]scale=w=720:h=960:flags=lanczos,setsar=1[o1];[s2]scale=w=1080:h=1440:flags=lanczos,setsar=1[o2]"]
        for (index, width) in [320, 720, 1080].enumerated() {
            expected += ["-map", "[o\(index)]", "-map_metadata", "-1", "-frames:v", "1", "-q:v", "3", "/out/image1_\(width).jpg"]
        }
        #expect(args == expected)
    }

    @Test func smallImageGetsOneVariantAtItsOwnWidth() {
        let (args, variants) = ImageCommand.plan(input: "i.png", sourceWidth: 200, sourceHeight: 150, orientation: 1, outputDirectory: "o", prefix: "x")
        #expect(variants == [ImageVariantPlan(path: "x_200.jpg", width: 200, height: 150)])
        #expect(args.contains("[0:v]split=1[s0];[s0]scale=w=200:h=150:flags=lanczos,setsar=1[o0]"))
    }

    /// A story photo 540 wide was served at 320 only: the steps below it, then its own width.
    @Test func anImageBetweenStepsAlsoGetsItsOwnWidth() {
        func widths(_ width: Int, _ height: Int, orientation: Int = 1) -> [Int] {
            ImageCommand.plan(input: "i.jpg", sourceWidth: width, sourceHeight: height, orientation: orientation, outputDirectory: "o", prefix: "x").variants.map(\.width)
        }
        #expect(widths(540, 960) == [320, 540])
        #expect(widths(1000, 1500) == [320, 720, 1000])
        #expect(widths(800, 600, orientation: 6) == [320, 600])
        #expect(widths(720, 1280) == [320, 720])
        #expect(widths(740, 1280) == [320, 720], "a few pixels past a step is served at the step")
        #expect(widths(1080, 1920) == [320, 720, 1080])
        #expect(widths(3000, 4000) == [320, 720, 1080])
        #expect(widths(200, 300) == [200])
        let plan = ImageCommand.plan(input: "i.jpg", sourceWidth: 540, sourceHeight: 960, orientation: 1, outputDirectory: "o", prefix: "x")
        #expect(plan.variants.last == ImageVariantPlan(path: "x_540.jpg", width: 540, height: 960))
    }

    @Test func filters() {
        #expect((1...8).map { ExifOrientation.filter(for: $0) } == [
            nil, "hflip", "hflip,vflip", "vflip", "transpose=0", "transpose=1", "transpose=3", "transpose=2",
        ])
    }

    @Test func readsBigEndianExifFromRealJPEGHeader() throws {
        #expect(ExifOrientation.read(jpeg: try Fixture.data("exif_orientation6_bigendian_header.bin")) == 6)
    }

    @Test(arguments: [true, false])
    func readsBothByteOrders(little: Bool) {
        for orientation in 1...8 {
            #expect(ExifOrientation.read(jpeg: Self.jpeg(orientation: orientation, littleEndian: little)) == orientation)
        }
    }

    @Test func defaultsToOne() {
        #expect(ExifOrientation.read(jpeg: Data()) == 1)
        #expect(ExifOrientation.read(jpeg: Data([0x89, 0x50, 0x4E, 0x47])) == 1)
        #expect(ExifOrientation.read(jpeg: Data([0xFF, 0xD8, 0xFF, 0xDA, 0, 2])) == 1)
        #expect(ExifOrientation.read(jpeg: Self.jpeg(orientation: 6, littleEndian: true).prefix(20)) == 1)
    }

    /// SOI, an APP0 to skip, then APP1 Exif with one IFD0 entry (0x0112, SHORT).
    static func jpeg(orientation: Int, littleEndian: Bool) -> Data {
        func u16(_ v: Int) -> [UInt8] { littleEndian ? [UInt8(v & 0xFF), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { littleEndian ? u16(v & 0xFFFF) + u16(v >> 16) : u16(v >> 16) + u16(v & 0xFFFF) }
        let tiff = (littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]) + u16(42) + u32(8) + u16(1)
            + u16(0x0112) + u16(3) + u32(1) + u16(orientation) + u16(0) + u32(0)
        let body: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0] + tiff
        let app0: [UInt8] = [0xFF, 0xE0, 0, 4, 0x4A, 0x46]
        return Data([0xFF, 0xD8] + app0 + [0xFF, 0xE1, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)] + body + [0xFF, 0xD9])
    }
}
