import Foundation
import Testing
@testable import ReelMedia

@Suite("The size policy's compression command")
struct MezzanineCommandTests {
    @Test("sizes scale the short side down to 1080, never up, and stay even")
    func sizes() {
        #expect(MezzanineCommand.outputSize(width: 2160, height: 3840) == (1080, 1920))
        #expect(MezzanineCommand.outputSize(width: 3840, height: 2160) == (1920, 1080))
        #expect(MezzanineCommand.outputSize(width: 1440, height: 2560) == (1080, 1920))
        #expect(MezzanineCommand.outputSize(width: 720, height: 1280) == (720, 1280))
        #expect(MezzanineCommand.outputSize(width: 1201, height: 1601) == (1080, 1440))
        #expect(MezzanineCommand.outputSize(width: 853, height: 479) == (852, 478))
    }

    @Test("a 4K portrait clip with audio: scale, H.264 CRF, AAC, faststart")
    func portrait4K() throws {
        var probe = try Fixture.probe("portrait_1080x1920_audio.mp4")
        probe.video?.displayWidth = 2160
        probe.video?.displayHeight = 3840
        probe.video?.frameRate = 30
        let args = MezzanineCommand.arguments(input: "/in/a.mov", output: "/work/mezzanine.mp4", probe: probe)
        #expect(args == [
            "-hide_banner", "-loglevel", "error", "-nostats", "-progress", "pipe:1", "-y", "-i", "file:/in/a.mov",
            "-map", "0:v:0", "-map", "0:a:0", "-vf", "scale=1080:1920,format=yuv420p",
            "-c:v", "libx264", "-preset", "veryfast", "-crf", "20", "-profile:v", "high",
            "-c:a", "aac", "-b:a", "160k", "-ac", "2", "-movflags", "+faststart", "-f", "mp4", "file:/work/mezzanine.mp4",
        ])
    }

    @Test("60 fps is capped at 30; a clip without audio maps and encodes no audio")
    func frameRateAndSilence() throws {
        let fast = MezzanineCommand.arguments(input: "/a", output: "/b", probe: try Fixture.probe("fps60_1280x720.mp4"), threads: 2)
        #expect(fast.contains("fps=30,format=yuv420p") || fast.joined(separator: " ").contains("fps=30"))
        #expect(!fast.joined(separator: " ").contains("scale="))
        #expect(fast.contains("-threads"))
        let silent = MezzanineCommand.arguments(input: "/a", output: "/b", probe: try Fixture.probe("landscape_1920x1080_noaudio.mp4"))
        #expect(!silent.contains("0:a:0") && !silent.contains("aac"))
        #expect(silent[silent.firstIndex(of: "-vf")! + 1] == "format=yuv420p")
    }
}
