import Foundation

/// Something the server has to hear about that can wait in an `OfflineQueue`.
public protocol QueuedChange: Codable, Sendable, Equatable {
    /// Two changes with the same target conflict: only the later one matters.
    var target: String { get }
}

/// A change to a post's per-user state that the server has to hear about.
public enum Mutation: QueuedChange {
    case favorite(videoID: Int64, favorited: Bool)
    case rating(videoID: Int64, rating: Int)
    /// A story item is a post: `videoID` is the item's id.
    case storyLike(itemID: Int64, liked: Bool)

    public var videoID: Int64 {
        switch self {
        case .favorite(let id, _), .rating(let id, _), .storyLike(let id, _): id
        }
    }

    public var target: String {
        switch self {
        case .favorite(let id, _): "favorite:\(id)"
        case .rating(let id, _): "rating:\(id)"
        case .storyLike(let id, _): "story-like:\(id)"
        }
    }
}

/// Changes made while offline, in a file that survives the app being killed, replayed in
/// the order they were made. A new change replaces a queued one with the same target (a
/// favorite toggled on, off, on offline is sent once), moving to the end so order holds.
/// One file per kind of change: `OfflineQueue<Mutation>` for post state, another path for
/// story seen batches (`StorySeenDelivery`).
public actor OfflineQueue<Change: QueuedChange> {
    let fileSystem: any CacheFileSystem
    let path: String
    private var loaded: [Change]?

    public init(fileSystem: any CacheFileSystem, path: String = "offline-queue.json") {
        self.fileSystem = fileSystem
        self.path = path
    }

    public var pending: [Change] { entries() }

    public func enqueue(_ mutation: Change) throws {
        var queue = entries().filter { $0.target != mutation.target }
        queue.append(mutation)
        try save(queue)
    }

    /// Drops whatever is queued for this target (the user's latest change already matches
    /// what the server has).
    public func cancel(matching mutation: Change) throws {
        let queue = entries()
        let kept = queue.filter { $0.target != mutation.target }
        if kept.count != queue.count { try save(kept) }
    }

    /// Removes the first entry if it is still `mutation` (it may have been replaced meanwhile).
    public func removeFirst(ifEqualTo mutation: Change) throws {
        var queue = entries()
        guard queue.first == mutation else { return }
        queue.removeFirst()
        try save(queue)
    }

    private func entries() -> [Change] {
        if let loaded { return loaded }
        // An unreadable queue file is dropped rather than blocking every future change.
        let decoded = (try? fileSystem.read(path)).flatMap { $0 }.flatMap { try? JSONDecoder().decode([Change].self, from: $0) } ?? []
        loaded = decoded
        return decoded
    }

    private func save(_ queue: [Change]) throws {
        try fileSystem.write(try JSONEncoder().encode(queue), to: path)
        loaded = queue
    }
}
