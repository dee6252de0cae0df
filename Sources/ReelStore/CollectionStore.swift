import Foundation
import ReelModels

/// A named, ordered set of posts an owner curates. Named `PostCollection` because Swift's
/// `Collection` is everywhere.
public struct PostCollection: Sendable, Equatable, Identifiable {
    public var id: Int64
    public var name: String
    /// Ready posts in it (only those are ever listed).
    public var count: Int
    /// Its first ready post, whose poster is the collection's cover.
    public var coverPost: Post?
    public var createdBy: Int64?
    public var createdAt: Date
    public var updatedAt: Date

    public init(id: Int64, name: String, count: Int, coverPost: Post?, createdBy: Int64?, createdAt: Date, updatedAt: Date) {
        self.id = id
        self.name = name
        self.count = count
        self.coverPost = coverPost
        self.createdBy = createdBy
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// Names are 1 to 100 characters after trimming, without control characters.
    public static let maxNameLength = 100
    /// Posts named in one change (a create, a reorder).
    public static let maxPostsPerChange = 1000

    /// The name as stored, or why it cannot be one.
    public static func validName(_ name: String) throws(StoreError) -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.count <= maxNameLength else {
            throw StoreError.invalid("a collection name is 1 to \(maxNameLength) characters")
        }
        guard !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw StoreError.invalid("a collection name cannot hold control characters")
        }
        return trimmed
    }
}

/// Collections: every change is one transaction. Names are unique ignoring (ASCII) case,
/// so the CLI can name them; a taken name is `StoreError.conflict`, a post or collection that
/// does not exist `StoreError.notFound`. Deleting a post removes it from every collection.
public protocol CollectionStore: Sendable {
    /// Every collection, by name.
    func collections() async throws -> [PostCollection]
    func collection(id: Int64) async throws -> PostCollection?
    func collection(named name: String) async throws -> PostCollection?
    /// A new collection holding `postIDs` in that order (repeats dropped).
    func createCollection(name: String, postIDs: [Int64], createdBy: Int64?, now: Date) async throws -> PostCollection
    /// Renames it (when `name` is given) and replaces its members and their order with
    /// `postIDs` (when given; repeats dropped), both or neither.
    func updateCollection(id: Int64, name: String?, postIDs: [Int64]?, now: Date) async throws -> PostCollection
    /// Appends the posts not in it yet, in order; those already in keep their place.
    func addToCollection(id: Int64, postIDs: [Int64], now: Date) async throws -> PostCollection
    /// Removes the posts; one that is not in it is not an error.
    func removeFromCollection(id: Int64, postIDs: [Int64], now: Date) async throws -> PostCollection
    func deleteCollection(id: Int64) async throws
}
