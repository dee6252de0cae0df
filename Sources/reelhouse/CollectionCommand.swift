import ArgumentParser
import Foundation
import ReelStore

/// `reelhouse collection …`: the collections owners curate in the web client, from a shell.
/// Collections are named by name (unique ignoring case), posts by id. Every mistake is one
/// line and a non-zero exit, and nothing changes on a mistake.
struct CollectionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "collection", abstract: "Manage collections (named, ordered sets of posts).",
        subcommands: [List.self, Create.self, Rename.self, Add.self, Remove.self, Delete.self]
    )

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List collections: id, ready posts, name.")
        @OptionGroup var dataOptions: DataOptions

        func run() async throws {
            try await AppContext.withLibrary(dataPath: dataOptions.resolvedPath, command: "collection list") { context in
                let collections = try await context.store.collections()
                if collections.isEmpty { print("no collections") }
                for collection in collections {
                    print("\(collection.id)\t\(collection.count) post\(collection.count == 1 ? "" : "s")\t\(collection.name)")
                }
            }
        }
    }

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create an empty collection.")
        @OptionGroup var dataOptions: DataOptions
        @Argument(help: "The new collection's name.") var name: String

        func run() async throws {
            try await AppContext.withLibrary(dataPath: dataOptions.resolvedPath, command: "collection create") { context in
                let created = try await CLIError.refusals("collection create") {
                    try await context.store.createCollection(name: name, postIDs: [], createdBy: nil, now: Date())
                }
                print("created collection \(created.name) (id \(created.id))")
            }
        }
    }

    struct Rename: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Rename a collection.")
        @OptionGroup var dataOptions: DataOptions
        @Argument(help: "The collection to rename.") var name: String
        @Argument(help: "Its new name.") var newName: String

        func run() async throws {
            try await AppContext.withLibrary(dataPath: dataOptions.resolvedPath, command: "collection rename") { context in
                let collection = try await CollectionCommand.named(name, in: context, command: "rename")
                let renamed = try await CLIError.refusals("collection rename") {
                    try await context.store.updateCollection(id: collection.id, name: newName, postIDs: nil, now: Date())
                }
                print("renamed \(collection.name) to \(renamed.name)")
            }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Append posts (by id) to a collection; posts already in it keep their place.")
        @OptionGroup var dataOptions: DataOptions
        @Argument(help: "The collection.") var name: String
        @Argument(help: ArgumentHelp("Post ids, in the order to append them.", valueName: "post-id")) var postIDs: [String] = []

        func run() async throws {
            try await CollectionCommand.changeMembers("add", name: name, postIDs: postIDs, data: dataOptions) { store, id, ids in
                try await store.addToCollection(id: id, postIDs: ids, now: Date())
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove posts (by id) from a collection.")
        @OptionGroup var dataOptions: DataOptions
        @Argument(help: "The collection.") var name: String
        @Argument(help: ArgumentHelp("Post ids.", valueName: "post-id")) var postIDs: [String] = []

        func run() async throws {
            try await CollectionCommand.changeMembers("remove", name: name, postIDs: postIDs, data: dataOptions) { store, id, ids in
                try await store.removeFromCollection(id: id, postIDs: ids, now: Date())
            }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete a collection (its posts stay in the library).")
        @OptionGroup var dataOptions: DataOptions
        @Argument(help: "The collection to delete (its posts stay).") var name: String

        func run() async throws {
            try await AppContext.withLibrary(dataPath: dataOptions.resolvedPath, command: "collection delete") { context in
                let collection = try await CollectionCommand.named(name, in: context, command: "delete")
                try await CLIError.refusals("collection delete") { try await context.store.deleteCollection(id: collection.id) }
                print("deleted collection \(collection.name)")
            }
        }
    }

    static func named(_ name: String, in context: AppContext, command: String) async throws -> PostCollection {
        guard let collection = try await context.store.collection(named: name) else {
            throw CLIError("collection \(command): no collection named \(name)")
        }
        return collection
    }

    static func postIDs(_ texts: [String], command: String) throws -> [Int64] {
        guard !texts.isEmpty else { throw CLIError("collection \(command): name at least one post id") }
        return try texts.map { text in
            guard let id = Int64(text), id > 0 else { throw CLIError("collection \(command): \(text) is not a post id") }
            return id
        }
    }

    /// `add` and `remove`: the ids checked, the collection found by name, the change made, the
    /// count printed.
    static func changeMembers(
        _ command: String, name: String, postIDs texts: [String], data: DataOptions,
        _ change: (any CollectionStore, _ collection: Int64, _ postIDs: [Int64]) async throws -> PostCollection
    ) async throws {
        let ids = try postIDs(texts, command: command)
        try await AppContext.withLibrary(dataPath: data.resolvedPath, command: "collection " + command) { context in
            let collection = try await named(name, in: context, command: command)
            let changed = try await CLIError.refusals("collection " + command) { try await change(context.store, collection.id, ids) }
            print("\(changed.name) holds \(changed.count) ready post\(changed.count == 1 ? "" : "s")")
        }
    }
}
