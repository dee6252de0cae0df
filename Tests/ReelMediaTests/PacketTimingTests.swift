import Foundation
import ReelMedia
import Testing

@Suite("Timing measured from packets (browser recordings)")
struct PacketTimingTests {
    @Test("a MediaRecorder WebM (captured from Chromium) probes without duration and with the ms time base")
    func recorderProbe() throws {
        let probe = try Fixture.probe("mediarecorder_vp9_opus.webm")
        #expect(probe.duration == nil)
        #expect(probe.video?.frameRate == 1000)
        #expect(PacketTiming.needsMeasuring(probe))
        #expect(MediaValidator.validate(probe, fileSize: 264_739, fileExtension: "webm", limits: MediaLimits()).isFailure)
    }

    @Test("its packets give the duration and the real frame rate, and then it validates")
    func measured() throws {
        let listing = try Fixture.text("probe/mediarecorder_vp9_opus.webm.packets.txt")
        let measured = try #require(PacketTiming.measure(listing))
        #expect(abs(measured.duration - 2.94) < 0.05)
        #expect(abs(measured.frameRate - 15) < 0.5)
        let patched = PacketTiming.applying(measured, to: try Fixture.probe("mediarecorder_vp9_opus.webm"))
        #expect(!PacketTiming.needsMeasuring(patched))
        #expect(!MediaValidator.validate(patched, fileSize: 264_739, fileExtension: "webm", limits: MediaLimits()).isFailure)
    }

    @Test("ordinary files are left alone; too few packets measure nothing")
    func leftAlone() throws {
        #expect(!PacketTiming.needsMeasuring(try Fixture.probe("fps60_1280x720.mp4")))
        #expect(!PacketTiming.needsMeasuring(try Fixture.probe("image.jpg")))
        #expect(PacketTiming.measure("") == nil)
        #expect(PacketTiming.measure("1.0\n") == nil)
        #expect(PacketTiming.measure("0.5\n0.5\n") == nil)
        let even = try #require(PacketTiming.measure("0.0\n0.1\n0.2\n0.3\n"))
        #expect(abs(even.duration - 0.4) < 1e-9 && abs(even.frameRate - 10) < 1e-9)
    }
}

private extension Result {
    var isFailure: Bool { if case .failure = self { true } else { false } }
}
