import Foundation
import ReelModels
import Testing
@testable import ReelMedia

/// Story parts of a long video: which parts, and the ladder command that encodes only one.
@Suite("Trimmed ladders (story parts)")
struct TrimmedLadderTests {
    func probe(duration: Double, audio: Bool = true) -> MediaProbe {
        MediaProbe(
            formatName: "mov", duration: duration,
            video: VideoStream(codec: "h264", codedWidth: 720, codedHeight: 1280, displayWidth: 720, displayHeight: 1280, frameRate: 30),
            audio: audio ? AudioStream(codec: "aac", channels: 2, sampleRate: 48000) : nil
        )
    }

    @Test func longVideosSplitIntoSixtySecondParts() {
        #expect(SourceTrim.parts(ofDuration: 130) == [
            SourceTrim(start: 0, duration: 60), SourceTrim(start: 60, duration: 60), SourceTrim(start: 120, duration: 10),
        ])
        #expect(SourceTrim.parts(ofDuration: 61)?.map(\.duration) == [60, 1])
        #expect(SourceTrim.parts(ofDuration: 180)?.count == 3, "exactly three minutes is three parts")
        #expect(SourceTrim.parts(ofDuration: 120.04)?.count == 2, "a container's rounding is no part of its own")
        #expect(SourceTrim.parts(ofDuration: 60) == nil, "a minute fits one story item")
        #expect(SourceTrim.parts(ofDuration: 12) == nil)
        #expect(SourceTrim.parts(ofDuration: .infinity) == nil)
        #expect(SourceTrim.parts(ofDuration: 25, length: 10)?.map(\.start) == [0, 10, 20])
    }

    @Test func planCoversOnlyThePartWithItsPosterInside() throws {
        let middle = try LadderPlanner.plan(for: probe(duration: 130), trim: SourceTrim(start: 60, duration: 60))
        #expect(middle.duration == 60)
        #expect(middle.trim == SourceTrim(start: 60, duration: 60))
        #expect(middle.posterTime == 1, "one second into the part, not into the source")

        let last = try LadderPlanner.plan(for: probe(duration: 130), trim: SourceTrim(start: 120, duration: 60))
        #expect(last.duration == 10, "clamped to where the source ends")
        #expect(last.trim == SourceTrim(start: 120, duration: 10))

        let short = try LadderPlanner.plan(for: probe(duration: 121.5), trim: SourceTrim(start: 120, duration: 60))
        #expect(short.posterTime == 0.5, "a third of a part shorter than three seconds")

        #expect(try LadderPlanner.plan(for: probe(duration: 130)).trim == nil)
    }

    @Test func partsOutsideTheSourceAreRefused() {
        #expect(throws: MediaError.self) { try LadderPlanner.plan(for: probe(duration: 30), trim: SourceTrim(start: 60, duration: 60)) }
        #expect(throws: MediaError.self) { try LadderPlanner.plan(for: probe(duration: 30), trim: SourceTrim(start: -1, duration: 10)) }
        #expect(throws: MediaError.self) { try LadderPlanner.plan(for: probe(duration: 30), trim: SourceTrim(start: 0, duration: 0)) }
    }

    @Test func trimmedCommandSeeksOnTheInputSide() throws {
        let plan = try LadderPlanner.plan(for: probe(duration: 130), trim: SourceTrim(start: 120, duration: 60))
        let args = TranscodeCommand.arguments(input: "/in/long.mp4", plan: plan, outputDirectory: "/out", options: TranscodeOptions())
        #expect(Array(args.prefix(13)) == [
            "-hide_banner", "-loglevel", "error", "-nostats", "-progress", "pipe:1", "-y",
            "-ss", "120", "-t", "10", "-i", "file:/in/long.mp4",
        ])
        #expect(args.filter { $0 == "-ss" || $0 == "-t" }.count == 2, "once, before the input, not as output options")
        #expect(args.joined(separator: " ").contains("[s4]trim=start=1,trim=end_frame=1"), "the poster is taken one second into the part")
    }

    @Test func silentTrackLastsThePart() throws {
        let plan = try LadderPlanner.plan(for: probe(duration: 95.25, audio: false), trim: SourceTrim(start: 60, duration: 60))
        let args = TranscodeCommand.arguments(input: "/in/quiet.mp4", plan: plan, outputDirectory: "/out", options: TranscodeOptions())
        #expect(Array(args[7..<18]) == [
            "-ss", "60", "-t", "35.25", "-i", "file:/in/quiet.mp4", "-f", "lavfi", "-t", "35.25", "-i",
        ])
    }

    @Test func untrimmedCommandIsUnchanged() throws {
        let plan = try LadderPlanner.plan(for: probe(duration: 130))
        let args = TranscodeCommand.arguments(input: "/in/long.mp4", plan: plan, outputDirectory: "/out", options: TranscodeOptions())
        #expect(!args.contains("-ss") && !args.contains("-t"))
        #expect(Array(args[7..<9]) == ["-i", "file:/in/long.mp4"])
    }
}
