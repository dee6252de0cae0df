import Foundation
import Testing
@testable import ReelMedia

@Suite("FFprobe decoding of real ffmpeg 5.1 output")
struct ProbeTests {
    @Test func portraitWithAudio() throws {
        let probe = try Fixture.probe("portrait_1080x1920_audio.mp4")
        #expect(probe.formatName == "mov,mp4,m4a,3gp,3g2,mj2")
        #expect(probe.duration == 4.0)
        #expect((probe.sizeBytes ?? 0) > 0 && (probe.bitRate ?? 0) > 0)
        let video = try #require(probe.video)
        #expect(video.codec == "h264" && video.codedWidth == 1080 && video.codedHeight == 1920)
        #expect(video.displayWidth == 1080 && video.displayHeight == 1920 && video.rotation == 0)
        #expect(video.frameRate == 30 && video.frameCount == 120 && video.pixelFormat == "yuv420p")
        #expect(!video.isStillImage)
        #expect(probe.audio == AudioStream(codec: "aac", channels: 1, sampleRate: 44100))
    }

    @Test func landscapeWithoutAudio() throws {
        let probe = try Fixture.probe("landscape_1920x1080_noaudio.mp4")
        #expect(probe.audio == nil)
        #expect(probe.video?.displayWidth == 1920 && probe.video?.displayHeight == 1080)
    }

    @Test(arguments: [
        ("square_720.mp4", 720, 720), ("lowres_160x120.mp4", 160, 120), ("odd_853x479.mp4", 853, 479),
        ("fps60_1280x720.mp4", 1280, 720),
    ])
    func displaySizes(name: String, width: Int, height: Int) throws {
        let video = try #require(try Fixture.probe(name).video)
        #expect(video.displayWidth == width && video.displayHeight == height)
    }

    @Test func sixtyFramesPerSecond() throws {
        #expect(try Fixture.probe("fps60_1280x720.mp4").video?.frameRate == 60)
    }

    /// ffmpeg 5.1's `-metadata:s:v rotate=90` stores a display matrix ffprobe reports as +90
    /// (counter-clockwise); a phone's portrait clip reports -90. Both swap the display size.
    @Test func displayMatrixRotation() throws {
        let ccw = try #require(try Fixture.probe("rotated_display90.mp4").video)
        #expect(ccw.rotation == 270 && ccw.codedWidth == 1920 && ccw.displayWidth == 1080 && ccw.displayHeight == 1920)
        let phone = try #require(try Fixture.probe("rotated_display270.mp4").video)
        #expect(phone.rotation == 90 && phone.displayWidth == 1080 && phone.displayHeight == 1920)
    }

    @Test func legacyRotateTagIsClockwise() throws {
        let json = #"{"streams":[{"codec_type":"video","codec_name":"h264","width":1920,"height":1080,"tags":{"rotate":"90"}}],"format":{"format_name":"mov"}}"#
        let video = try #require(try FFprobe.decode(Data(json.utf8)).video)
        #expect(video.rotation == 90 && video.displayWidth == 1080 && video.displayHeight == 1920)
    }

    @Test func anamorphicSampleAspectRatio() throws {
        let video = try #require(try Fixture.probe("anamorphic_720x576_sar16-15.mp4").video)
        #expect(abs(video.sampleAspectRatio - 16.0 / 15.0) < 1e-9)
        #expect(video.displayWidth == 768 && video.displayHeight == 576)
    }

    @Test(arguments: ["image.png", "image.jpg", "still.gif"])
    func stillImages(name: String) throws {
        let video = try #require(try Fixture.probe(name).video)
        #expect(video.isStillImage)
    }

    @Test func animatedGIFIsNotStill() throws {
        let probe = try Fixture.probe("anim.gif")
        #expect(probe.video?.isStillImage == false && probe.video?.frameCount == 10 && probe.duration == 1.0)
    }

    @Test func audioOnly() throws {
        let probe = try Fixture.probe("audio.m4a")
        #expect(probe.video == nil && probe.audio?.codec == "aac")
    }

    @Test func attachedPictureIsNotTheVideo() throws {
        let json = #"{"streams":[{"codec_type":"audio","codec_name":"mp3","channels":2,"sample_rate":"44100"},{"codec_type":"video","codec_name":"mjpeg","width":500,"height":500,"disposition":{"attached_pic":1}}],"format":{"format_name":"mp3","duration":"3.5"}}"#
        let probe = try FFprobe.decode(Data(json.utf8))
        #expect(probe.video == nil && probe.audio?.sampleRate == 44100 && probe.duration == 3.5)
    }

    @Test func toleratesOddFields() throws {
        let json = #"{"streams":[{"codec_type":"video","codec_name":"h264","width":"640","height":480,"avg_frame_rate":"0/0","r_frame_rate":"30000/1001","nb_frames":"N/A","sample_aspect_ratio":"0:1","duration":"N/A"}],"format":{"format_name":"mpegts","duration":"N/A","size":"1234","bit_rate":"bogus"}}"#
        let probe = try FFprobe.decode(Data(json.utf8))
        let video = try #require(probe.video)
        #expect(video.codedWidth == 640 && video.sampleAspectRatio == 1 && video.frameCount == nil)
        #expect(abs((video.frameRate ?? 0) - 29.97) < 0.01)
        #expect(probe.duration == nil && probe.sizeBytes == 1234 && probe.bitRate == nil)
    }

    @Test func rejectsGarbage() {
        #expect(throws: MediaError.self) { try FFprobe.decode(Data("not json".utf8)) }
        #expect(throws: MediaError.invalidProbe("no format section")) { try FFprobe.decode(Data("{}".utf8)) }
    }

    @Test func argumentsProtectDashPaths() {
        #expect(FFprobe.arguments(path: "-evil.mp4") == [
            "-v", "error", "-print_format", "json", "-show_format", "-show_streams", "file:-evil.mp4",
        ])
    }

    @Test func tailCheckReadsLastTwoSeconds() {
        #expect(FFprobe.tailCheckArguments(path: "/m/a.mp4", duration: 9.5) == [
            "-v", "error", "-select_streams", "v:0", "-read_intervals", "7.500%",
            "-show_entries", "packet=pts_time", "-of", "csv=p=0", "file:/m/a.mp4",
        ])
        #expect(FFprobe.tailCheckArguments(path: "a", duration: 1)[5] == "0.000%")
    }
}
