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

    func run() async throws {
        let context = try AppContext(dataPath: dataOptions.resolvedPath, creating: true)
        let started = Date()
        try context.store.insertSyntheticPosts(count: count, tagsPerPost: tags, now: Date())
        var user = try await context.store.user(name: "bench")
        if user == nil {
            user = try await context.store.createUser(name: "bench", role: .owner, passwordHash: "-", now: Date())
        }
        guard let user else { throw CLIError("bench-seed: could not create the bench user") }
        let key = Credentials.newAPIKey()
        _ = try await context.store.createAPIKey(
            userID: user.id, name: "bench", keyHash: Credentials.hash(key), prefix: Credentials.displayPrefix(key), now: Date()
        )
        FileHandle.standardError.write(Data("inserted \(count) posts in \(String(format: "%.1f", Date().timeIntervalSince(started))) s\n".utf8))
        print(key)
    }
}
