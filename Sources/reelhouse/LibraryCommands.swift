import ArgumentParser
import Foundation
import ReelModels
import ReelStore

/// `reelhouse library list|create|rename|grant|revoke|set`: libraries, who may see them, and
/// their settings.
struct LibraryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "library", abstract: "Manage libraries and the members granted each (owners see every library).",
        subcommands: [List.self, Create.self, Rename.self, Grant.self, Revoke.self, Settings.self]
    )

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List libraries: id, name, ready posts, granted members.")
        @OptionGroup var dataOptions: DataOptions

        func run() async throws {
            try await AppContext.withLibrary(dataPath: dataOptions.resolvedPath, command: "library list") { context in
                let names = Dictionary(try await context.store.users().map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
                for library in try await context.store.libraries() {
                    let members = library.members.map { names[$0] ?? "user \($0)" }.joined(separator: ",")
                    print("\(library.id)\t\(library.name)\t\(library.postCount)\t\(members)")
                }
            }
        }
    }

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create a library.")
        @OptionGroup var dataOptions: DataOptions
        @Argument(help: "The new library's name.") var name: String

        func run() async throws {
            try await AppContext.withLibrary(dataPath: dataOptions.resolvedPath, command: "library create", creating: true) { context in
                let library = try await CLIError.refusals("library create") { try await context.store.createLibrary(name: name, now: Date()) }
                print("created library \(library.name) (id \(library.id))")
            }
        }
    }

    struct Rename: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Rename a library.")
        @OptionGroup var dataOptions: DataOptions
        @Argument(help: "The library to rename.") var name: String
        @Argument(help: "Its new name.") var newName: String

        func run() async throws {
            try await AppContext.withLibrary(dataPath: dataOptions.resolvedPath, command: "library rename") { context in
                let library = try await LibraryCommand.find(name, in: context.store, command: "library rename")
                let renamed = try await CLIError.refusals("library rename") { try await context.store.renameLibrary(id: library.id, name: newName) }
                print("renamed library \(library.name) to \(renamed.name)")
            }
        }
    }

    struct Grant: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Let a user see a library.")
        @OptionGroup var dataOptions: DataOptions
        @Argument(help: "The library.") var name: String
        @Argument(help: "The member who may see it.") var user: String

        func run() async throws {
            try await AppContext.withLibrary(dataPath: dataOptions.resolvedPath, command: "library grant") { context in
                let (library, account) = try await LibraryCommand.find(name, user, in: context.store, command: "library grant")
                try await context.store.grant(libraryID: library.id, userID: account.id)
                print("granted \(library.name) to \(account.name)")
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Stop a user seeing a library (owners still see every library).")
        @OptionGroup var dataOptions: DataOptions
        @Argument(help: "The library.") var name: String
        @Argument(help: "The member who may no longer see it.") var user: String

        func run() async throws {
            try await AppContext.withLibrary(dataPath: dataOptions.resolvedPath, command: "library revoke") { context in
                let (library, account) = try await LibraryCommand.find(name, user, in: context.store, command: "library revoke")
                try await context.store.revoke(libraryID: library.id, userID: account.id)
                print("revoked \(library.name) from \(account.name)")
            }
        }
    }

    /// `library set`: not named `Set`, which would hide the standard library's type here.
    struct Settings: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "set", abstract: "Change a library's settings.")
        @OptionGroup var dataOptions: DataOptions
        @Argument(help: "The library.") var name: String
        @Option(help: "Archived stories (instaloader) filed into it never expire (true, the default), or expire like anyone's (false).")
        var keepArchivedStories: Bool?

        func run() async throws {
            guard let keep = keepArchivedStories else {
                throw CLIError("library set: nothing to set (--keep-archived-stories true|false)")
            }
            try await AppContext.withLibrary(dataPath: dataOptions.resolvedPath, command: "library set") { context in
                let library = try await LibraryCommand.find(name, in: context.store, command: "library set")
                let changed = try await CLIError.refusals("library set") {
                    try await context.store.setKeepArchivedStories(libraryID: library.id, keep: keep)
                }
                print("\(changed.name): keep archived stories \(changed.keepArchivedStories ? "on" : "off")")
            }
        }
    }

    static func find(_ name: String, in store: any LibraryGrantStore, command: String) async throws -> LibraryRecord {
        guard let library = try await store.library(name: name) else { throw CLIError("\(command): no library named \(name)") }
        return library
    }

    static func find(_ name: String, _ user: String, in store: any LibraryGrantStore & AccountStore, command: String) async throws -> (LibraryRecord, User) {
        let library = try await find(name, in: store, command: command)
        guard let account = try await store.user(name: user) else { throw CLIError("\(command): no user named \(user)") }
        return (library, account)
    }

    /// `import --library NAME`: the library of that name, made first when there is none.
    static func findOrCreate(_ name: String, in store: any LibraryGrantStore) async throws -> LibraryRecord {
        if let library = try await store.library(name: name) { return library }
        return try await CLIError.refusals("import --library") { try await store.createLibrary(name: name, now: Date()) }
    }
}
