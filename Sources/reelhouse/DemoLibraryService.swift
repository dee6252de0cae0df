import Foundation
import ReelJobs
import ReelModels
import ReelPipeline
import ReelStorage
import ReelStore
import ServiceLifecycle

/// `serve --demo` on an empty library: renders the demo clips and imports them while the
/// server already answers. Done before listening, as it once was, a first visit met a refused
/// connection for the minute ffmpeg needs; now the web client shows the library being
/// prepared and fills in as each post is published. The node's transcode workers (or another
/// node's, with `--role api`) take the jobs; the console says when the last one has ended.
struct DemoLibraryService: Service {
    let context: AppContext
    /// Whether this node runs the transcode jobs itself (else they wait for a worker node).
    let runsJobs: Bool
    /// Console lines (stdout, like the rest of `serve`'s start-up).
    var say: @Sendable (String) -> Void = { line in
        print(line)
        fflush(nil)
    }

    /// Where the demo is rendered (a folder of the data folder, imported from as it grows).
    static func folder(of context: AppContext) -> URL {
        context.dataFolder.root.appendingPathComponent("demo-source", isDirectory: true)
    }

    func run() async throws {
        do {
            try await populate()
        } catch is CancellationError {
            say("Demo library: stopped before it was ready; the next serve --demo finishes it.")
        } catch {
            say("Demo library: could not be made: \(error)")
        }
        // Returning ends the service group, and with it the server: wait for the shutdown.
        try? await gracefulShutdown()
    }

    private func populate() async throws {
        let started = ContinuousClock.now
        let folder = Self.folder(of: context)
        say((DemoLibrary.isUnfinished(in: folder) ? "Finishing the demo library begun in \(folder.path)." : "The library is empty: generating a demo library in \(folder.path).")
            + " Its posts appear in the feed as each is ready.")
        let settings = context.settings
        let importer = Importer(
            dataFolder: context.dataFolder, store: context.store, runner: context.runner, limits: settings.mediaLimits, sources: context.sources
        )
        // Stopping (Ctrl-C) stops ffmpeg between or during renders. A batch is imported only
        // once its files exist, and its import (a second of probing) is not cancelled part-way.
        let (imported, jobIDs) = try await cancelWhenGracefulShutdown { [context] in
            var imported = 0
            var jobIDs: [Int64] = []
            try await DemoLibrary.generate(into: folder, runner: context.runner) { batch in
                // Each clip keeps its own tags only: one tag on every post would be every For You reason.
                let (report, jobs) = try await Task { try await importer.run([batch], options: ImportOptions()) }.value
                imported += report.imported.count
                jobIDs += jobs
            }
            return (imported, jobIDs)
        }
        say("Demo library: \(imported) posts and stories imported; "
            + (runsJobs ? "the last transcodes are running." : "\(jobIDs.count) transcodes wait for a worker node."))
        // Also a transcode an earlier, stopped start left queued (a worker released it).
        let unfinished = try await context.store.jobs(states: [.queued, .running], kinds: [.transcode], limit: 1000).map(\.id)
        let waited = Array(Set(jobIDs + unfinished))
        let jobs = try await cancelWhenGracefulShutdown {
            try await JobWaiter(store: context.store, jobIDs: waited, activity: context.jobActivity).wait(running: nil) { _ in }
        }
        let failed = jobs.filter { $0.state == .failed }.count
        let seconds = Int((ContinuousClock.now - started) / .seconds(1))
        say("Demo library ready in \(seconds) s: \(imported - failed) posts and stories imported"
            + (failed > 0 ? "; \(failed) failed to transcode (see reelhouse jobs)." : "."))
    }
}
