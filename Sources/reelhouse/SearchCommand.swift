import ArgumentParser
import Foundation
import ReelStore

struct SearchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search", abstract: "Maintain the search index.", subcommands: [Rebuild.self]
    )

    /// The triggers keep the index in step with every write; a rebuild is for a library whose
    /// index is suspected wrong (restored from a partial backup, say), and compacts it.
    struct Rebuild: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Rebuild the search index from the posts and print how many were indexed.")
        @OptionGroup var dataOptions: DataOptions

        func run() async throws {
            try await AppContext.withLibrary(dataPath: dataOptions.resolvedPath, command: "search rebuild") { context in
                let count = try await context.store.rebuildSearchIndex()
                print("indexed \(count) ready post\(count == 1 ? "" : "s")")
            }
        }
    }
}
