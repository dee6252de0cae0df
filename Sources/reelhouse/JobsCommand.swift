import ArgumentParser
import Foundation
import ReelModels
import ReelStore

struct JobsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jobs", abstract: "List jobs (transcode, generation, upload_import; with --all also sweep, upload_expiry, stories.expire, events.expire, recs.neighbors, storage.sweep) and their state."
    )

    @OptionGroup var dataOptions: DataOptions

    @Flag(name: .long, help: "Print a JSON array.")
    var json = false

    @Option(name: .long, help: "Show at most this many jobs, newest first.")
    var limit = 100

    @Flag(name: .long, help: "Also the server's own recurring upkeep jobs (sweep, upload_expiry, stories.expire, events.expire, recs.neighbors, storage.sweep).")
    var all = false

    func run() async throws {
        try await AppContext.withLibrary(dataPath: dataOptions.resolvedPath, command: "jobs") { context in
            let jobs = try await context.store.jobs(states: nil, kinds: all ? nil : JobKind.work, limit: limit)
            if json {
                let encoder = JSONEncoder()
                encoder.keyEncodingStrategy = .convertToSnakeCase
                encoder.dateEncodingStrategy = .iso8601
                encoder.outputFormatting = [.sortedKeys]
                print(String(decoding: try encoder.encode(jobs), as: UTF8.self))
                return
            }
            if jobs.isEmpty {
                print("no jobs")
                return
            }
            print("ID      KIND           STATE      TRIES  PROGRESS  POST    LAST ERROR")
            for job in jobs {
                let id = String(job.id).padding(toLength: 8, withPad: " ", startingAt: 0)
                let kind = job.kind.rawValue.padding(toLength: 15, withPad: " ", startingAt: 0)
                let state = job.state.rawValue.padding(toLength: 11, withPad: " ", startingAt: 0)
                let tries = "\(job.attempts)/\(job.maxAttempts)".padding(toLength: 7, withPad: " ", startingAt: 0)
                let progress = "\(Int(job.progress * 100))%".padding(toLength: 10, withPad: " ", startingAt: 0)
                let post = (job.postID.map(String.init) ?? "-").padding(toLength: 8, withPad: " ", startingAt: 0)
                print("\(id)\(kind)\(state)\(tries)\(progress)\(post)\(job.lastError ?? "")")
            }
        }
    }
}
