import Foundation
import Testing
@testable import ReelMedia

@Suite("Validation rules and rejection codes")
struct ValidatorTests {
    func validate(_ probe: MediaProbe, size: Int64 = 1000, ext: String = "mp4", limits: MediaLimits = .default) -> Result<MediaClass, Rejection> {
        MediaValidator.validate(probe, fileSize: size, fileExtension: ext, limits: limits)
    }

    func code(_ result: Result<MediaClass, Rejection>) -> String? {
        if case .failure(let rejection) = result { return rejection.code }
        return nil
    }

    func video(width: Int = 1080, height: Int = 1920, fps: Double? = 30, codec: String = "h264", frames: Int? = nil, still: Bool = false) -> VideoStream {
        VideoStream(codec: codec, codedWidth: width, codedHeight: height, displayWidth: width, displayHeight: height,
                    frameRate: fps, frameCount: frames, isStillImage: still)
    }

    @Test func acceptsFixtures() throws {
        #expect(try validate(Fixture.probe("portrait_1080x1920_audio.mp4")) == .success(.video))
        #expect(try validate(Fixture.probe("image.jpg"), ext: "jpg") == .success(.image))
        #expect(try validate(Fixture.probe("image.png"), ext: "png") == .success(.image))
        #expect(try validate(Fixture.probe("still.gif"), ext: "gif") == .success(.image))
        #expect(try validate(Fixture.probe("anim.gif"), ext: "gif") == .success(.animatedImage))
        #expect(try validate(Fixture.probe("rotated_display90.mp4")) == .success(.video))
    }

    @Test func emptyFile() {
        #expect(code(validate(MediaProbe(formatName: ""), size: 0)) == "empty_file")
    }

    @Test func notMedia() {
        #expect(code(validate(MediaProbe(formatName: "tty"), ext: "txt")) == "not_media")
    }

    @Test func audioOnlyHasNoVideoStream() throws {
        #expect(code(try validate(Fixture.probe("audio.m4a"), ext: "m4a")) == "no_video_stream")
    }

    @Test func animatedWebPIsUnsupported() throws {
        #expect(code(try validate(Fixture.probe("anim.webp"), ext: "webp")) == "unsupported_codec")
    }

    @Test func zeroDuration() {
        #expect(code(validate(MediaProbe(formatName: "mov", duration: 0, video: video()))) == "zero_duration")
        #expect(code(validate(MediaProbe(formatName: "mov", duration: nil, video: video()))) == "zero_duration")
    }

    @Test func tooLong() {
        let result = validate(MediaProbe(formatName: "mov", duration: 612, video: video()))
        #expect(result == .failure(Rejection(code: "too_long", message: "duration 612.0 s is above the limit of 600 s")))
    }

    @Test func tooLargeDimensions() {
        #expect(code(validate(MediaProbe(formatName: "mov", duration: 5, video: video(width: 8192, height: 4320)))) == "too_large_dimensions")
        #expect(code(validate(MediaProbe(formatName: "mov", duration: 5, video: video(width: 4400, height: 4400)))) == "too_large_dimensions")
    }

    @Test func tooSmallDimensions() {
        let result = validate(MediaProbe(formatName: "mov", duration: 5, video: video(width: 48, height: 100)))
        #expect(result == .failure(Rejection(code: "too_small_dimensions", message: "picture size 48×100 is below the minimum edge of 64 px")))
    }

    @Test func badFrameRate() {
        #expect(code(validate(MediaProbe(formatName: "mov", duration: 5, video: video(fps: 240)))) == "bad_frame_rate")
        #expect(code(validate(MediaProbe(formatName: "mov", duration: 5, video: video(fps: 0.5)))) == "bad_frame_rate")
        #expect(code(validate(MediaProbe(formatName: "mov", duration: 5, video: video(fps: nil)))) == "bad_frame_rate")
    }

    @Test func imageTooLarge() {
        let probe = MediaProbe(formatName: "image2", video: video(width: 8000, height: 6000, codec: "mjpeg", still: true))
        #expect(validate(probe, ext: "jpg") == .failure(Rejection(
            code: "image_too_large", message: "image size 8000×6000 (48.0 MP) is above the limit of 40.0 MP"
        )))
    }

    @Test func customLimits() {
        var limits = MediaLimits.default
        limits.maxDuration = 3
        #expect(code(validate(MediaProbe(formatName: "mov", duration: 4, video: video()), limits: limits)) == "too_long")
    }

    @Test(arguments: [
        ("[mov,mp4,m4a,3gp,3g2,mj2 @ 0x5604] moov atom not found\nfile:t.mp4: Invalid data found when processing input", "truncated", "truncated: moov atom not found"),
        ("file:notes.txt: Invalid data found when processing input", "not_media", "not a media file"),
        ("file:nonexist.mp4: No such file or directory", "not_media", "does not exist"),
        ("[mov @ 0x1] stream 0, offset 0x3d7d7e: partial file", "truncated", "partial file"),
        ("", "not_media", "not a media file"),
        ("something unusual happened", "not_media", "something unusual happened"),
    ])
    func probeFailures(stderr: String, code: String, phrase: String) {
        let rejection = MediaValidator.rejectionForProbeFailure(stderr: stderr)
        #expect(rejection.code == code)
        #expect(rejection.message.contains(phrase))
    }
}
