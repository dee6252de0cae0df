import ArgumentParser
import Foundation
import ReelJobs
import ReelMedia
import ReelModels
import ReelPipeline
import ReelServer
import ReelStore

struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import videos and images (with their yt-dlp / instaloader / gallery-dl sidecars) from files or folders."
    )

    @OptionGroup var dataOptions: DataOptions
    @OptionGroup var media: MediaOptions

    @Argument(help: "Files or folders to import (folders recursively).")
    var paths: [String]

    @Option(name: .long, help: "A tag to add to every imported post (repeatable).")
    var tag: [String] = []

    @Option(name: .long, help: "A look applied to every imported video while transcoding: \(VideoFilter.allCases.map(\.rawValue).joined(separator: ", ")).")
    var filter: String = VideoFilter.none.rawValue

    @Option(name: .long, help: "The library the posts go to, by name (created if missing; default: the first library).")
    var library: String?

    @Flag(name: .long, help: "File every item as a story of the user named by --as (it leaves the tray after the storyLifetimeHours setting, default 24).")
    var story = false

    @Option(name: .customLong("as"), help: "With --story: the user whose stories these are.")
    var storyAuthor: String?

    @Flag(name: .long, help: "Print one JSON object on stdout and nothing else.")
    var json = false

    @Flag(name: .long, help: "Only queue the work; do not wait for transcoding.")
    var noWait = false

    @Option(name: .long, help: "Transcode jobs to run at once while waiting (env REELHOUSE_WORKER_CONCURRENCY; default: 1 on ≤ 2 cores).")
    var concurrency: Int?

    func run() async throws {
        guard json else { return try await importAndWait() }
        // `--json` always prints its one object, also when the import cannot start.
        do {
            try await importAndWait()
        } catch let error as CLIError {
            print(try ReportPrinter.json(ImportReport(imported: [], skipped: [], rejected: []), error: error.description))
            throw error
        }
    }

    private func importAndWait() async throws {
        // Transcodes publish where `serve` serves from (the data folder, or the bucket).
        try await AppContext.withLibrary(
            dataPath: dataOptions.resolvedPath, command: "import", creating: true, flags: media.flags(workerConcurrency: concurrency)
        ) { context in
            try await importAndWait(context)
        }
    }

    private func importAndWait(_ context: AppContext) async throws {
        let progress = ProgressReporter(quiet: false)
        let settings = context.settings
        try await context.sweeper.sweep()
        let importer = Importer(dataFolder: context.dataFolder, store: context.store, runner: context.runner, limits: settings.mediaLimits, sources: context.sources)
        guard let look = VideoFilter(rawValue: filter) else {
            throw CLIError("import: --filter must be one of \(VideoFilter.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        var libraryID = Post.defaultLibraryID
        if let library { libraryID = try await LibraryCommand.findOrCreate(library, in: context.store).id }
        let storyImport = try await storyOptions(store: context.store, lifetime: settings.storyLifetime)
        let roots = paths.map { URL(fileURLWithPath: $0) }
        let missing = roots.filter { !FileManager.default.fileExists(atPath: $0.path) }
        if !json, let first = missing.first {
            throw CLIError("import: \(first.path) does not exist")
        }
        // With --json a missing path is one more rejected entry; the others are imported.
        var (report, jobIDs) = try await importer.run(roots.filter { !missing.contains($0) }, options: ImportOptions(
            tags: tag, filter: look, libraryID: libraryID, story: storyImport, storyLifetime: settings.storyLifetime
        )) { event in
            progress.handle(event)
        }
        report.rejected += missing.map { ImportReport.Skipped(path: $0.path, reason: "does not exist") }
        if !noWait, !jobIDs.isEmpty {
            progress.name(report.imported)
            let worker = context.worker(settings: settings)
            let finished = try await JobWaiter(store: context.store, jobIDs: jobIDs, activity: context.jobActivity).wait(running: worker) { jobs in
                progress.transcoding(jobs)
            }
            progress.finishTranscoding()
            report = try await Self.settle(report, jobs: finished, store: context.store)
        }
        progress.finish()
        if json {
            print(try ReportPrinter.json(report))
        } else {
            print(ReportPrinter.human(report, waited: !noWait))
        }
        let alreadyThere = report.skipped.contains { $0.reason.hasPrefix("already imported") }
        if report.imported.isEmpty && !alreadyThere {
            throw ExitCode(1)
        }
    }

    /// `--story --as USER`: the user must exist; each flag needs the other.
    private func storyOptions(store: any AccountStore, lifetime: TimeInterval) async throws -> StoryImport? {
        switch (story, storyAuthor) {
        case (false, nil): return nil
        case (false, .some): throw CLIError("import: --as names whose stories these are; add --story")
        case (true, nil): throw CLIError("import: --story needs --as USER (whose stories these are)")
        case (true, .some(let name)):
            guard let user = try await store.user(name: name) else { throw CLIError("import: no user named '\(name)' (create one with `reelhouse user add`)") }
            return StoryImport(author: user.name, userID: user.id, lifetime: lifetime)
        }
    }

    /// Posts whose transcode failed for good move from `imported` to `rejected`, with the reason.
    static func settle(_ report: ImportReport, jobs: [Job], store: any LibraryStore) async throws -> ImportReport {
        var report = report
        var stillImported: [ImportReport.Imported] = []
        for item in report.imported {
            let post = try await store.post(id: item.id)
            if let post, post.status == .failed {
                let job = jobs.first { $0.postID == item.id }
                let reason = post.failureReason ?? job?.lastError ?? "transcode failed"
                report.rejected.append(.init(path: item.path, reason: "transcode failed: \(reason)"))
            } else {
                stillImported.append(item)
            }
        }
        report.imported = stillImported
        return report
    }
}

/// The media settings `import` and `worker` take as flags of their own (`serve` takes every
/// setting of the table the same way): the table's spelling and help, read through
/// `ConfigurationLoader` with the config file and `REELHOUSE_*` below them.
struct MediaOptions: ParsableArguments {
    @Option(name: .long, help: help("maxDuration"))
    var maxDuration: Double?

    @Option(name: .long, help: help("maxImagePixels"))
    var maxImagePixels: Int?

    @Flag(inversion: .prefixedNo, help: help("encryption"))
    var encryption: Bool?

    @Option(name: .long, help: help("preset"))
    var preset: String?

    /// The flags given, with the command's own `--concurrency`, as config keys and text (what
    /// `ConfigurationFlags.parse` makes of `serve`'s flags).
    func flags(workerConcurrency: Int?) -> [String: String] {
        var flags: [String: String] = [:]
        flags["workerConcurrency"] = workerConcurrency.map { String($0) }
        flags["maxDuration"] = maxDuration.map { String($0) }
        flags["maxImagePixels"] = maxImagePixels.map { String($0) }
        flags["encryption"] = encryption.map { String($0) }
        flags["preset"] = preset
        return flags
    }

    private static func help(_ key: String) -> ArgumentHelp {
        guard let setting = ConfigurationSetting.named(key) else { preconditionFailure("\(key) is not in ConfigurationSetting.all") }
        let fallback = setting.defaultText(in: ServerConfiguration.documentedDefaults.values).map { ", default \($0)" } ?? ""
        return ArgumentHelp("\(setting.help) (env \(setting.environment)\(fallback))")
    }
}
