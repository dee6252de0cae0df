import Foundation
import Testing
@testable import ReelMedia

@Suite("Ladder planning")
struct LadderTests {
    func plan(_ fixture: String) throws -> LadderPlan { try LadderPlanner.plan(for: Fixture.probe(fixture)) }

    func probe(width: Int, height: Int, fps: Double? = 30, duration: Double? = 10, audio: Bool = true) -> MediaProbe {
        MediaProbe(
            formatName: "mov", duration: duration,
            video: VideoStream(codec: "h264", codedWidth: width, codedHeight: height, displayWidth: width, displayHeight: height, frameRate: fps),
            audio: audio ? AudioStream(codec: "aac", channels: 2, sampleRate: 48000) : nil
        )
    }

    @Test func portraitFullLadder() throws {
        let plan = try plan("portrait_1080x1920_audio.mp4")
        #expect(plan.rungs.map(\.name) == ["240p", "360p", "540p", "720p", "1080p"])
        #expect(plan.rungs.map(\.width) == [240, 360, 540, 720, 1080])
        #expect(plan.rungs.map(\.height) == [426, 640, 960, 1280, 1920])
        #expect(plan.rungs.map(\.videoBitrate) == [400_000, 800_000, 2_000_000, 3_000_000, 6_000_000])
        #expect(plan.rungs.map(\.audioBitrate) == [96_000, 96_000, 128_000, 128_000, 128_000])
        #expect(plan.rungs.map(\.level) == [30, 30, 31, 31, 40])
        #expect(plan.rungs.last?.codecs == "avc1.640028,mp4a.40.2")
        #expect(plan.rungs[2].codecs == "avc1.64001f,mp4a.40.2")
        #expect(plan.rungs[0] == Rung(
            name: "240p", width: 240, height: 426, frameRate: 30, videoBitrate: 400_000, maxRate: 600_000,
            bufferSize: 1_200_000, audioBitrate: 96_000, profile: "high", level: 30, codecs: "avc1.64001e,mp4a.40.2"
        ))
        #expect(plan.segmentDuration == 2 && plan.duration == 4 && plan.hasSourceAudio && plan.posterTime == 1)
        // Short segments open the video (a first picture from a quarter of a segment's bytes).
        #expect(plan.leadSegments == [0.5, 0.5, 1])
        let plain = try LadderPlanner.plan(for: Fixture.probe("portrait_1080x1920_audio.mp4"), quickStart: false)
        #expect(plain.leadSegments.isEmpty)
    }

    @Test func landscapeKeepsOrientationAndNotesMissingAudio() throws {
        let plan = try plan("landscape_1920x1080_noaudio.mp4")
        #expect(plan.rungs.map { "\($0.width)x\($0.height)" } == ["426x240", "640x360", "960x540", "1280x720", "1920x1080"])
        #expect(!plan.hasSourceAudio)
    }

    @Test func neverUpscalesAndStopsAtLowerStandardRung() throws {
        #expect(try plan("square_720.mp4").rungs.map(\.name) == ["240p", "360p", "540p", "720p"])
        let odd = try plan("odd_853x479.mp4")
        #expect(odd.rungs.map { "\($0.name) \($0.width)x\($0.height)" } == ["240p 428x240", "360p 642x360"])
    }

    @Test func belowSmallestRungUsesSourceSizeRoundedToEven() throws {
        let low = try plan("lowres_160x120.mp4")
        #expect(low.rungs.map { "\($0.name) \($0.width)x\($0.height)" } == ["120p 160x120"])
        #expect(low.rungs[0].videoBitrate == 200_000)
        let oddLow = try LadderPlanner.plan(for: probe(width: 131, height: 97))
        #expect(oddLow.rungs.map { "\($0.name) \($0.width)x\($0.height)" } == ["96p 130x96"])
    }

    @Test func rotationAndAnamorphicUseDisplaySize() throws {
        let rotated = try plan("rotated_display90.mp4")
        #expect(rotated.rungs.last.map { "\($0.width)x\($0.height)" } == "1080x1920")
        let anamorphic = try plan("anamorphic_720x576_sar16-15.mp4")
        #expect(anamorphic.rungs.map { "\($0.width)x\($0.height)" } == ["320x240", "480x360", "720x540"])
        #expect(anamorphic.rungs.allSatisfy { $0.frameRate == 25 })
    }

    @Test func highFrameRateIsHalvedBelow720() throws {
        let plan = try plan("fps60_1280x720.mp4")
        #expect(plan.rungs.map(\.frameRate) == [30, 30, 30, 60])
        #expect(plan.rungs.last?.videoBitrate == 4_500_000)
        #expect(plan.rungs.last?.level == 32)
        let fifty = try LadderPlanner.plan(for: probe(width: 1920, height: 1080, fps: 50))
        #expect(fifty.rungs.map(\.frameRate) == [25, 25, 25, 50, 50])
        #expect(fifty.rungs.last?.level == 42)
        let fast = try LadderPlanner.plan(for: probe(width: 1280, height: 720, fps: 120))
        #expect(fast.rungs.map(\.frameRate) == [30, 30, 30, 60])
    }

    @Test func frameRateSnapsAndDefaults() throws {
        let phone = try LadderPlanner.plan(for: probe(width: 1080, height: 1920, fps: 29.87))
        #expect(abs(phone.sourceFrameRate - 30000.0 / 1001) < 1e-9)
        #expect(try LadderPlanner.plan(for: probe(width: 1080, height: 1920, fps: nil)).sourceFrameRate == 30)
    }

    @Test func posterTimeIsAThirdForShortClips() throws {
        #expect(try LadderPlanner.plan(for: probe(width: 640, height: 360, duration: 1.5)).posterTime == 0.5)
        #expect(try LadderPlanner.plan(for: probe(width: 640, height: 360, duration: 30)).posterTime == 1)
    }

    @Test func levelLimits() {
        #expect(H264Level.smallest(width: 1920, height: 1080, frameRate: 30, maxRate: 9_000_000) == 40)
        #expect(H264Level.smallest(width: 1280, height: 720, frameRate: 30, maxRate: 4_500_000) == 31)
        #expect(H264Level.smallest(width: 4096, height: 2160, frameRate: 30, maxRate: 9_000_000) == nil)
        #expect(H264Level.codecsString(level: 42) == "avc1.64002a,mp4a.40.2")
    }

    @Test func refusesWhatCannotBePlanned() {
        #expect(throws: MediaError.self) { try LadderPlanner.plan(for: MediaProbe(formatName: "mp3", duration: 3)) }
        #expect(throws: MediaError.self) { try LadderPlanner.plan(for: probe(width: 640, height: 360, duration: nil)) }
        // 1080p at 120 fps → 60 fps top rung fits 4.2; an ultra-wide 1080-short-edge strip does not.
        #expect(throws: MediaError.self) { try LadderPlanner.plan(for: probe(width: 7680, height: 1080)) }
    }
}
