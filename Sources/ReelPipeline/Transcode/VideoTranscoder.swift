import Foundation
import ReelJobs
import ReelMedia
import ReelModels
import ReelProcess
import ReelStorage

/// Produces a video post's outputs in a staging folder: one ffmpeg run (decode once, the whole
/// ladder plus poster and thumbnail), a remux of the ≤ 720p rung into a download MP4, then
/// packaging (encryption, playlists).
struct VideoTranscoder {
    let runner: any ProcessRunner
    let options: TranscodeOptions

    /// The share of the job's progress bar the ladder encode fills (a compression pass before
    /// it takes the part below).
    var progressRange: ClosedRange<Double> = 0...0.9

    /// `subtitles` are the post's kept WebVTT files with their language tags; `trim` the part
    /// of the source to encode (a story part), nil for all of it.
    func transcode(
        source: URL, subtitles: [(tag: String, url: URL)] = [], trim: SourceTrim? = nil, into staging: URL, key: Data?,
        context: JobContext
    ) async throws -> PublishedMedia {
        let probe = try await runner.probeForTranscode(source)
        let plan: LadderPlan
        do {
            plan = try LadderPlanner.plan(for: probe, trim: trim, quickStart: options.quickStart)
        } catch {
            throw JobFailure.invalidInput("cannot plan a ladder for this video: \(error)")
        }
        for rung in plan.rungs {
            try FileManager.default.createDirectory(
                at: staging.appendingPathComponent(rung.name, isDirectory: true), withIntermediateDirectories: true
            )
        }

        let arguments = TranscodeCommand.arguments(input: source.path, plan: plan, outputDirectory: staging.path, options: options)
        let output = try await runner.runFFmpeg(arguments, duration: plan.duration, context: context, range: progressRange)
        guard output.succeeded else { throw FFmpegFailure.classify(output.stderrTail) }

        let downloadRung = plan.rungs.last { min($0.width, $0.height) <= 720 } ?? plan.rungs[0]
        let remux = try await runner.run(
            "ffmpeg",
            TranscodeCommand.downloadArguments(
                rungPlaylist: staging.appendingPathComponent("\(downloadRung.name)/index.m3u8").path,
                output: staging.appendingPathComponent(Self.downloadName).path
            )
        )
        guard remux.succeeded else { throw FFmpegFailure.classify(remux.stderrTail) }
        await context.reportProgress(0.93)
        // Read before the segments are encrypted: where the first frame sits on the timeline.
        let firstFrame = subtitles.isEmpty ? 0 : try await firstPresentationTime(
            staging.appendingPathComponent("\(plan.rungs[plan.rungs.count - 1].name)/index.m3u8")
        )

        let packager = HLSPackager(directory: staging)
        let renditions = try packager.package(plan: plan, key: key)
        var tracks: [SubtitleTrack] = []
        if !subtitles.isEmpty, let top = renditions.last {
            tracks = try SubtitlePackager(directory: staging).package(
                subtitles, segmentDurations: try packager.segmentDurations(top), firstPresentationTime: firstFrame
            )
        }
        try packager.writeMaster(renditions, subtitles: tracks)
        await context.reportProgress(0.97)

        let top = plan.rungs[plan.rungs.count - 1]
        // Their sizes are planned (the top rung, and the thumbnail scaled from it), so no probe is needed.
        let thumbSize = TranscodeCommand.thumbnailSize(width: top.width, height: top.height)
        let poster = try StillImage.describe(staging, "poster.jpg", width: top.width, height: top.height)
        let thumbnail = try StillImage.describe(staging, "thumb.jpg", width: thumbSize.width, height: thumbSize.height)
        return PublishedMedia(
            duration: plan.duration, width: top.width, height: top.height, hasSourceAudio: plan.hasSourceAudio,
            encrypted: key != nil, masterPlaylist: HLSPackager.masterName, renditions: renditions,
            poster: poster, thumbnail: thumbnail, download: Self.downloadName, images: [],
            subtitles: tracks.isEmpty ? nil : tracks
        )
    }

    /// The top rung's first video timestamp (ffprobe), 0 when ffprobe cannot say.
    private func firstPresentationTime(_ playlist: URL) async throws -> Double {
        let output = try await runner.run("ffprobe", SubtitleSegmenter.firstPresentationTimeArguments(playlist: playlist.path))
        return output.succeeded ? SubtitleSegmenter.firstPresentationTime(ffprobeOutput: String(decoding: output.stdout, as: UTF8.self)) : 0
    }

    static let downloadName = "download.mp4"

}

extension ProcessRunner {
    /// ffprobe for a job: a file that cannot be read is the input's fault, never retried.
    func probeForTranscode(_ source: URL) async throws -> MediaProbe {
        let output = try await run("ffprobe", FFprobe.arguments(path: source.path))
        guard output.succeeded else {
            throw JobFailure.invalidInput(MediaValidator.rejectionForProbeFailure(stderr: output.stderrTail).message)
        }
        let probe: MediaProbe
        do {
            probe = try FFprobe.decode(output.stdout)
        } catch {
            throw JobFailure.invalidInput("ffprobe output could not be read: \(error)")
        }
        return try await completingTiming(of: probe, path: source.path)
    }

    /// Runs ffmpeg with `-progress pipe:1`, reporting its progress into `range` of the job's bar.
    func runFFmpeg(_ arguments: [String], duration: Double, context: JobContext, range: ClosedRange<Double>) async throws -> ProcessOutput {
        let relay = ProgressRelay()
        let parserBox = ParserBox(parser: FFmpegProgressParser(duration: duration))
        async let forwarding: Void = relay.forward(to: context, range: range)
        do {
            let output = try await run("ffmpeg", arguments) { line in
                if let fraction = parserBox.consume(line) { relay.send(fraction) }
            }
            relay.finish()
            await forwarding
            return output
        } catch {
            relay.finish()
            await forwarding
            throw error
        }
    }
}

/// The progress parser is a value type mutated from the pipe callback thread.
private final class ParserBox: @unchecked Sendable {
    private let lock = NSLock()
    private var parser: FFmpegProgressParser

    init(parser: FFmpegProgressParser) { self.parser = parser }

    func consume(_ line: String) -> Double? { lock.withLock { parser.consume(line: line) } }
}

/// Decides whether a failed ffmpeg run is worth retrying.
enum FFmpegFailure {
    /// Phrases ffmpeg prints when the *input* is at fault; retrying cannot help.
    static let inputErrors = [
        "Invalid data found", "moov atom not found", "partial file", "Error while decoding",
        "could not find codec parameters", "does not contain any stream", "Invalid argument",
    ]

    static func classify(_ stderrTail: String) -> JobFailure {
        let lines = stderrTail.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let reason = lines.suffix(3).joined(separator: " / ")
        let message = "ffmpeg failed: \(reason.isEmpty ? "no error output" : reason)"
        return inputErrors.contains(where: stderrTail.contains) ? .invalidInput(message) : .transient(message)
    }
}

/// Content hash of a still image we produced, with its planned size.
enum StillImage {
    static func describe(_ directory: URL, _ name: String, width: Int, height: Int) throws -> ImageFile {
        let url = directory.appendingPathComponent(name)
        guard let data = try? Data(contentsOf: url), data.count > 2, data.prefix(2) == Data([0xFF, 0xD8]) else {
            throw PipelineError.inconsistent("ffmpeg did not write a JPEG \(name)")
        }
        let hash = String(ContentHasher.sha256(of: data).prefix(16))
        return ImageFile(path: name, width: width, height: height, contentHash: hash)
    }
}
