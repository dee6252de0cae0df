import Foundation
import Observation
import ReelKit
import ReelModels

/// Editing one collection (owners): rename, reorder, remove posts, delete. Changes are made
/// here first and saved in one request, so a half-done reorder never reaches the server.
@Observable @MainActor
public final class CollectionEditorModel {
    public let id: Int64
    public var name = ""
    public private(set) var items: [APIVideo] = []
    public private(set) var saved: APICollection?
    public private(set) var isLoading = false
    public private(set) var isDeleted = false
    public private(set) var error: ScreenError?
    private var savedOrder: [Int64] = []
    private let context: FeatureContext

    public init(context: FeatureContext, id: Int64) {
        self.context = context
        self.id = id
    }

    public var hasChanges: Bool {
        guard let saved else { return false }
        return items.map(\.id) != savedOrder || trimmedName != saved.name
    }

    private var trimmedName: String { name.trimmingCharacters(in: .whitespacesAndNewlines) }

    /// The collection and every one of its posts (a collection is small; all pages are read).
    public func load() async {
        isLoading = true
        defer { isLoading = false }
        let client = context.client, id = id
        let result = await context.attempt { () async throws -> (APICollection, [APIVideo]) in
            var page = try await client.collection(id: id, limit: 60)
            var all = page.items
            while let next = page.nextCursor, all.count < 5000 {
                page = try await client.collection(id: id, cursor: next, limit: 60)
                all += page.items
            }
            return (page.collection, all)
        }
        switch result {
        case .success(let (collection, posts)):
            saved = collection
            name = collection.name
            items = posts
            savedOrder = posts.map(\.id)
            error = nil
        case .failure(let failure):
            error = failure
            if failure.kind == .notFound { isDeleted = true }
        }
    }

    public func moveUp(_ post: Int64) { move(post, by: -1) }
    public func moveDown(_ post: Int64) { move(post, by: 1) }

    /// Drag and drop: the rows at `source` go before `destination` (SwiftUI's `onMove`).
    public func move(fromOffsets source: IndexSet, toOffset destination: Int) {
        let moving = source.sorted().map { items[$0] }
        var rest = items.enumerated().filter { !source.contains($0.offset) }.map(\.element)
        let before = source.filter { $0 < destination }.count
        rest.insert(contentsOf: moving, at: max(0, min(rest.count, destination - before)))
        items = rest
    }

    private func move(_ post: Int64, by offset: Int) {
        guard let index = items.firstIndex(where: { $0.id == post }), items.indices.contains(index + offset) else { return }
        items.swapAt(index, index + offset)
    }

    public func remove(_ post: Int64) {
        items.removeAll { $0.id == post }
    }

    /// Saves the name and the order (removed posts leave with the new order). Returns whether it held.
    public func save() async -> Bool {
        guard let saved, hasChanges else { return true }
        guard !trimmedName.isEmpty else {
            error = ScreenError(.rejected, "A collection needs a name.")
            return false
        }
        let client = context.client, id = id
        let newName = trimmedName != saved.name ? trimmedName : nil
        let order = items.map(\.id) != savedOrder ? items.map(\.id) : nil
        switch await context.attempt({ try await client.updateCollection(id: id, name: newName, postIDs: order) }) {
        case .success(let collection):
            self.saved = collection
            name = collection.name
            savedOrder = items.map(\.id)
            error = nil
            return true
        case .failure(let failure):
            error = failure
            return false
        }
    }

    /// Puts back what was saved.
    public func discardChanges() async {
        await load()
    }

    public func delete() async -> Bool {
        let client = context.client, id = id
        switch await context.attempt({ try await client.deleteCollection(id: id) }) {
        case .success:
            isDeleted = true
            return true
        case .failure(let failure):
            error = failure
            return false
        }
    }
}
