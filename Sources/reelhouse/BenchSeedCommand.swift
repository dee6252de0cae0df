import ArgumentParser
import Foundation
import ReelModels
import ReelServer
import ReelStoreSQLite

/// `make bench` helper: fills a data folder with a synthetic library and prints an owner key.
struct BenchSeedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-seed", abstract: "Fill a data folder with N synthetic ready posts (benchmarks only).", shouldDisplay: false
    )

    @OptionGroup var dataOptions: DataOptions
    @Option(help: "How many posts.") var count: Int
    @Option(help: "Tags per post.") var tags = 3
    @Option(help: "Synthetic members with watch histories (For You benchmarks).") var users = 0
    @Option(help: "Watch events among those members, with their aggregates and neighbours.") var events = 0
    @Option(help: "Write an API key of each of the first N members, one per line, to --keys-file.") var keys = 0
    @Option(name: .customLong("keys-file"), help: "Where the members' API keys go.") var keysFile: String?

    func run() async throws {
        let context = try AppContext(dataPath: dataOptions.resolvedPath, creating: true)
        let started = Date()
        try context.store.insertSyntheticPosts(count: count, tagsPerPost: tags, now: Date())
        var user = try await context.store.user(name: "bench")
        if user == nil {
            user = try await context.store.createUser(name: "bench", role: .owner, passwordHash: "-", now: Date())
        }
        guard let user else { throw CLIError("bench-seed: could not create the bench user") }
        if users > 0 {
            let eventsStarted = Date()
            let members = try context.store.insertSyntheticEvents(users: users, events: events, now: Date())
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
