import ArgumentParser
import Foundation
import ReelForYou
import ReelModels
import ReelServer
import ReelStore
import ReelStoreSQLite

/// `make bench` helper: fills a data folder with a synthetic library and prints an owner key.
struct BenchSeedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-seed", abstract: "Fill a data folder with N synthetic ready posts (benchmarks only).", shouldDisplay: false
    )

    @OptionGroup var dataOptions: DataOptions
    @Option(help: "How many posts.") var count: Int
    @Option(help: "Tags per post.") var tags = 3
    @Option(help: "Distinct uploaders (post i is by uploader i % N).") var uploaders = 997
    @Option(help: "Post lengths in seconds as MIN-MAX, spread log-uniformly (default: every post 12.5 s).") var durations: String?
    @Option(help: "Synthetic members with watch histories (For You benchmarks).") var users = 0
    @Option(help: "Watch events among those members, with their aggregates and neighbours.") var events = 0
    @Option(help: "Write an API key of each of the first N members, one per line, to --keys-file.") var keys = 0
    @Option(name: .customLong("keys-file"), help: "Where the members' API keys go.") var keysFile: String?

    func run() async throws {
        try await AppContext.withLibrary(dataPath: dataOptions.resolvedPath, command: "bench-seed", creating: true) { context in
            // Synthetic rows go straight into SQLite's tables, past the store protocols.
            guard let sqlite = context.sqlite else { throw CLIError("bench-seed: fills a SQLite library only (unset databaseUrl)") }
            let started = Date()
            guard uploaders >= 1 else { throw CLIError("bench-seed: --uploaders must be at least 1") }
            try sqlite.insertSyntheticPosts(
                count: count, tagsPerPost: tags, now: Date(), uploaders: uploaders, durations: try durations.map(Self.range)
            )
            var user = try await context.store.user(name: "bench")
            if user == nil {
                user = try await context.store.createUser(name: "bench", role: .owner, passwordHash: "-", now: Date())
            }
            guard let user else { throw CLIError("bench-seed: could not create the bench user") }
            if users > 0 {
                let eventsStarted = Date()
                let members = try sqlite.insertSyntheticUsers(count: users, now: Date())
                let catalogue = try sqlite.syntheticCatalogue()
                let watching = SyntheticWatching(postsByTag: catalogue.byTag, allPosts: catalogue.all).events(users: members, count: events, now: Date())
                try sqlite.loadEvents(watching, aggregation: ForYouRules())
                try sqlite.loadNeighbors(SyntheticWatching.neighbors(of: watching))
                FileHandle.standardError.write(Data(
                    "inserted \(users) users and about \(events) events with aggregates and neighbours in \(String(format: "%.1f", Date().timeIntervalSince(eventsStarted))) s\n".utf8
                ))
                if keys > 0 {
                    guard let keysFile else { throw CLIError("bench-seed: --keys needs --keys-file") }
                    var lines: [String] = []
                    for member in members.prefix(keys) {
                        let key = Credentials.newAPIKey()
                        _ = try await context.store.createAPIKey(
                            userID: member, name: "bench", keyHash: Credentials.hash(key), prefix: Credentials.displayPrefix(key), now: Date()
                        )
                        lines.append(key)
                    }
                    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: keysFile))
                }
            }
            let key = Credentials.newAPIKey()
            _ = try await context.store.createAPIKey(
                userID: user.id, name: "bench", keyHash: Credentials.hash(key), prefix: Credentials.displayPrefix(key), now: Date()
            )
            FileHandle.standardError.write(Data("inserted \(count) posts in \(String(format: "%.1f", Date().timeIntervalSince(started))) s\n".utf8))
            print(key)
        }
    }

    /// `MIN-MAX` in seconds, 0 < MIN ≤ MAX ≤ 6 hours.
    static func range(_ text: String) throws -> ClosedRange<Double> {
        let parts = text.split(separator: "-").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let lower = parts[0], let upper = parts[1], lower > 0, lower <= upper, upper <= 21_600 else {
            throw CLIError("bench-seed: --durations takes MIN-MAX in seconds, e.g. 5-60")
        }
        return lower...upper
    }
}
