import Foundation
import ReelJobs
import ReelMedia
import ReelModels
import ReelProcess
import ReelStorage
import ReelStore

/// The compression pass of the upload size policy: re-encodes a large upload to H.264 ≤ 1080p30
/// in the job's work folder and, unless originals are kept, makes that file the post's source
/// (recorded in the store before the original is deleted, so a crash in between leaves an
/// unreferenced original at worst, never a post without a source).
struct SourcePreparer {
    let sources: any SourceStorage
    let store: any LibraryStore
    let runner: any ProcessRunner
    let keepOriginal: Bool
    let threads: Int?

    /// The part of the job's progress bar this pass fills.
    static let progressRange: ClosedRange<Double> = 0...0.4

    /// Returns the file the ladder should be encoded from.
    func prepare(postID: Int64, source: URL, work: URL, context: JobContext) async throws -> URL {
        let probe = try await runner.probeForTranscode(source)
        let compressed = work.appendingPathComponent("mezzanine.mp4")
        let arguments = MezzanineCommand.arguments(input: source.path, output: compressed.path, probe: probe, threads: threads)
        let output = try await runner.runFFmpeg(arguments, duration: probe.duration ?? 0, context: context, range: Self.progressRange)
        guard output.succeeded else { throw FFmpegFailure.classify(output.stderrTail) }
        try Task.checkCancellation()
        if keepOriginal { return compressed }

        let hash = try await BlockingIO.run { try ContentHasher.sha256(of: compressed) }
        let kept = try await sources.keep(compressed, contentHash: hash)
        let replaced = try await store.finishSourcePreparation(postID: postID, sourcePath: kept)
        if let replaced, replaced != kept { await sources.removeSource(replaced) }
        // The kept source has these bytes (on the disk: the same file, hard-linked).
        return compressed
    }
}
