import ArgumentParser
import AsyncHTTPClient
import Foundation
import ReelMedia
import ReelModels
import ReelPipeline
import ReelServer
import ReelSources
import ReelStorage
import ReelStore

/// `reelhouse source …`: fill a library from an outside catalogue.
struct SourceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "source",
        abstract: "Import videos and photos from an outside catalogue, with their attribution.",
        subcommands: [PexelsSourceCommand.self]
    )
}

/// `reelhouse source pexels`: pages through Pexels until `--limit` items, downloads each into a
/// staging folder with a sidecar crediting its author, and imports them through the normal
/// pipeline. The staging folder is removed afterwards whatever happened (and, should the
/// process be killed, by the sweeper an hour later).
struct PexelsSourceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pexels",
        abstract: "Import popular or searched Pexels videos (or photos) with their attribution.",
        discussion: """
            The key comes from --key or the pexelsKey secret (REELHOUSE_PEXELS_KEY or the config file); REELHOUSE_PEXELS_URL points at another \
            server speaking Pexels' API (default \(PexelsSource.defaultBaseURL)). Searches ask for portrait \
            items; without --query the popular videos (or curated photos) are imported.
            """
    )

    @OptionGroup var dataOptions: DataOptions
    @OptionGroup var media: MediaOptions

    @Option(name: .long, help: "Words to search for (default: Pexels' popular videos or curated photos).")
    var query: String?

    @Option(name: .long, help: "How many items to import (1…\(Self.maxLimit)).")
    var limit: Int = 10

    @Flag(name: .long, help: "Import photos instead of videos.")
    var photos = false

    @Flag(name: .long, help: "File each item as a story of its author (pexels-<name>), expiring like a person's stories.")
    var asStories = false

    @Option(name: .long, help: "The library the posts go to, by name (created if missing; default: the first library).")
    var library: String?

    @Option(name: .long, help: "The Pexels API key (env REELHOUSE_PEXELS_KEY).")
    var key: String?

    @Flag(name: .long, help: "Only queue the work; do not wait for transcoding.")
    var noWait = false

    @Option(name: .long, help: "Transcode jobs to run at once while waiting (env REELHOUSE_WORKER_CONCURRENCY; default: 1 on ≤ 2 cores).")
    var concurrency: Int?

    /// Two full Pexels pages of 80 and then some; more is a job for several runs.
    static let maxLimit = 500

    func validate() throws {
        guard (1...Self.maxLimit).contains(limit) else { throw ValidationError("--limit must be between 1 and \(Self.maxLimit)") }
        if let query, query.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { throw ValidationError("--query is empty") }
    }

    func run() async throws {
        // Settings (and so a bad story lifetime or Pexels URL) are checked before anything is
        // downloaded.
        try await AppContext.withLibrary(
            dataPath: dataOptions.resolvedPath, command: "source pexels", creating: true, flags: media.flags(workerConcurrency: concurrency)
        ) { context in
            try await fill(context)
        }
    }

    private func fill(_ context: AppContext) async throws {
        let settings = context.settings
        let source: PexelsSource
        do {
            source = try PexelsSource(
                client: .shared, apiKey: key ?? settings.pexelsKey ?? "",
                baseURL: settings.pexelsBaseURL,
                onWait: { seconds in Self.say("waiting  \(Int(seconds.rounded(.up))) s for the Pexels rate limit to reset") }
            )
        } catch {
            throw CLIError("source pexels: \(error)")
        }
        let storyLifetime = asStories ? settings.storyLifetime : nil
        try await context.sweeper.sweep()
        let importer = Importer(dataFolder: context.dataFolder, store: context.store, runner: context.runner, limits: settings.mediaLimits, sources: context.sources)
        var libraryID = Post.defaultLibraryID
        if let library { libraryID = try await LibraryCommand.findOrCreate(library, in: context.store).id }

        // Under `publishing/`, which import reads (it skips `tmp/` and the other managed folders).
        let staging = context.dataFolder.publishStagingRoot.appendingPathComponent("pexels-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: staging) }

        let query = SourceQuery(kind: photos ? .photo : .video, search: query, orientation: .portrait)
        let staged = await SourceStager(source: source).stage(query, limit: limit, into: staging) { event in
            Self.report(event)
        }
        if staged.staged.isEmpty {
            if let error = staged.stoppedBy { throw CLIError("source pexels: \(error)") }
            throw CLIError("source pexels: nothing to import (\(staged.skipped.count) item(s) left out)")
        }

        let progress = ProgressReporter(quiet: false)
        var (report, jobIDs) = (ImportReport(), [Int64]())
        for (folder, story) in try importRuns(staged, staging: staging, storyLifetime: storyLifetime) {
            let (part, partJobs) = try await importer.run([folder], options: ImportOptions(libraryID: libraryID, story: story)) { event in
                progress.handle(event)
            }
            report.imported += part.imported
            report.skipped += part.skipped
            report.rejected += part.rejected
            report.warnings += part.warnings
            jobIDs += partJobs
        }
        if !noWait, !jobIDs.isEmpty {
            progress.name(report.imported)
            let finished = try await JobWaiter(store: context.store, jobIDs: jobIDs, activity: context.jobActivity).wait(running: context.worker(settings: settings)) { jobs in
                progress.transcoding(jobs)
            }
            progress.finishTranscoding()
            report = try await ImportCommand.settle(report, jobs: finished, store: context.store)
        }
        progress.finish()
        print(ReportPrinter.human(report, waited: !noWait))
        if let error = staged.stoppedBy {
            throw CLIError("source pexels: stopped after \(staged.staged.count) of \(limit): \(error)")
        }
        let alreadyThere = report.skipped.contains { $0.reason.hasPrefix("already imported") }
        if report.imported.isEmpty && !alreadyThere { throw ExitCode(1) }
    }

    /// What to import and how: the whole staging folder as posts, or with `--as-stories` one
    /// folder per author, each filed as that author's stories (not archived: they expire).
    private func importRuns(_ staged: StagingReport, staging: URL, storyLifetime: TimeInterval?) throws -> [(URL, StoryImport?)] {
        guard let storyLifetime else { return [(staging, nil)] }
        do {
            return try staged.batchesByStoryAuthor(in: staging).map { batch in
                (batch.folder, StoryImport(author: batch.author, lifetime: storyLifetime))
            }
        } catch {
            throw CLIError("source pexels: \(error)")
        }
    }

    private static func report(_ event: StagingEvent) {
        switch event {
        case .listed(let page, let items, let total):
            say("listed   page \(page): \(items) item(s)\(total.map { " of \($0)" } ?? "")")
        case .downloading(let item, let index, let limit):
            say("download \(index)/\(limit) \(item.stem) by \(item.attribution.author ?? "an unnamed author")")
        case .skipped(let id, let reason):
            say("skipped  \(id.map { "Pexels item \($0): " } ?? "")\(reason)")
        }
    }

    /// Progress goes to stderr, like `import`'s; stdout keeps the report.
    private static func say(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
