import Foundation
import ReelJobs
import ReelMedia
import ReelModels
import ReelProcess
import ReelStorage

/// Produces an image or carousel post's outputs: per image, responsive JPEG variants with the
/// EXIF orientation applied and every metadata block (GPS included) dropped.
struct ImageProcessor {
    let runner: any ProcessRunner

    func process(sources: [URL], into staging: URL, context: JobContext) async throws -> PublishedMedia {
        var sets: [ImageSet] = []
        for (index, source) in sources.enumerated() {
            sets.append(try await processOne(source, index: index, staging: staging))
            await context.reportProgress(Double(index + 1) / Double(sources.count) * 0.95)
        }
        guard let first = sets.first, let largest = first.variants.max(by: { $0.width < $1.width }),
              let smallest = first.variants.min(by: { $0.width < $1.width })
        else { throw PipelineError.inconsistent("no image variants were produced") }
        return PublishedMedia(
            duration: nil, width: largest.width, height: largest.height, hasSourceAudio: false, encrypted: false,
            masterPlaylist: nil, renditions: [], poster: largest, thumbnail: smallest, download: nil, images: sets
        )
    }

    private func processOne(_ source: URL, index: Int, staging: URL) async throws -> ImageSet {
        let probeOutput = try await runner.run("ffprobe", FFprobe.arguments(path: source.path))
        guard probeOutput.succeeded, let probe = try? FFprobe.decode(probeOutput.stdout), let video = probe.video else {
            throw JobFailure.invalidInput(MediaValidator.rejectionForProbeFailure(stderr: probeOutput.stderrTail).message)
        }
        // Only JPEG carries EXIF orientation in a form ffmpeg 5.1 ignores; read it ourselves.
        let header = (try? FileHandle(forReadingFrom: source)).flatMap { handle in
            defer { try? handle.close() }
            return try? handle.read(upToCount: 256 * 1024)
        } ?? Data()
        let orientation = ExifOrientation.read(jpeg: header)
        let (arguments, variants) = ImageCommand.plan(
            input: source.path, sourceWidth: video.displayWidth, sourceHeight: video.displayHeight,
            orientation: orientation, outputDirectory: staging.path, prefix: "image\(index + 1)"
        )
        let output = try await runner.run("ffmpeg", arguments)
        guard output.succeeded else { throw FFmpegFailure.classify(output.stderrTail) }
        return ImageSet(variants: try variants.map { planned in
            let data = try Data(contentsOf: staging.appendingPathComponent(planned.path))
            return ImageFile(
                path: planned.path, width: planned.width, height: planned.height,
                contentHash: String(ContentHasher.sha256(of: data).prefix(16))
            )
        })
    }
}
