import Foundation
import Observation
import ReelKit
import ReelModels

/// Discover: the server's shelves (new, unseen, by tag…), the collections row, and which
/// library the screen shows once the person may see several.
@Observable @MainActor
public final class DiscoverModel {
    public private(set) var content: Loadable<APIDiscover> = .idle
    public private(set) var collections: [APICollection] = []
    public private(set) var libraries: [APILibrary] = []
    /// nil: every library the person may see.
    public private(set) var library: Int64?
    private let context: FeatureContext

    public init(context: FeatureContext) {
        self.context = context
    }

    /// The shelves, without posts deleted in this session and without shelves left empty. A
    /// collection's own shelf is left out: the collections row already shows it.
    public var shelves: [APIShelf] {
        let collectionShelves = Set(collections.map { "collection-\($0.id)" })
        return (content.value?.shelves ?? []).compactMap { shelf in
            guard !collectionShelves.contains(shelf.id) else { return nil }
            var shelf = shelf
            shelf.items.removeAll { context.deletedPosts.contains($0.id) }
            return shelf.items.isEmpty ? nil : shelf
        }
    }

    /// The picker shows only when there is a choice.
    public var showsLibraryPicker: Bool { libraries.count > 1 }
    public var libraryName: String? { library.flatMap { id in libraries.first { $0.id == id }?.name } }

    public func load() async {
        if content.value == nil { content = .loading }
        let client = context.client, library = library
        let result = await context.attempt { () async throws in
            async let discover = client.discover(library: library)
            async let collections = client.collections(library: library)
            async let libraries = client.libraries()
            return try await (discover, collections, libraries)
        }
        switch result {
        case .success(let (discover, collections, libraries)):
            content = .loaded(discover)
            self.collections = collections
            self.libraries = libraries
        case .failure(let error):
            // A refresh that failed keeps the shelves on screen.
            if content.value == nil { content = .failed(error) }
        }
    }

    public func select(library: Int64?) async {
        guard library != self.library else { return }
        self.library = library
        content = .loading
        await load()
    }
}
