import Foundation
import ArgumentParser

@main
struct Reelhouse: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reelhouse",
        abstract: "A self-hosted short-form video server.",
        subcommands: [ServeCommand.self, MigrateCommand.self, ImportCommand.self, JobsCommand.self, WorkerCommand.self, DoctorCommand.self, UserCommand.self, KeyCommand.self, LibraryCommand.self, CollectionCommand.self, SearchCommand.self, SourceCommand.self, BenchSeedCommand.self, EvalCommand.self, EdgeCommand.self, MigrateStoreCommand.self]
    )
}

/// `--data PATH` on every subcommand (env `REELHOUSE_DATA`, default `./data`).
struct DataOptions: ParsableArguments {
    @Option(name: .long, help: "The folder holding the database, media and keys (env REELHOUSE_DATA, default ./data).")
    var data: String?

    var resolvedPath: String {
        data ?? ProcessInfo.processInfo.environment["REELHOUSE_DATA"].flatMap { $0.isEmpty ? nil : $0 } ?? "./data"
    }
}
