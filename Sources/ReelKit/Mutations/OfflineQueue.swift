import Foundation

/// A change to a post's per-user state that the server has to hear about.
public enum Mutation: Codable, Sendable, Equatable {
    case favorite(videoID: Int64, favorited: Bool)
    case rating(videoID: Int64, rating: Int)

    public var videoID: Int64 {
        switch self {
        case .favorite(let id, _), .rating(let id, _): id
        }
    }

    /// Two mutations with the same target conflict: only the later one matters.
    var target: String {
        switch self {
        case .favorite(let id, _): "favorite:\(id)"
        case .rating(let id, _): "rating:\(id)"
        }
    }
}

/// Mutations made while offline, in a file that survives the app being killed, replayed in
/// the order they were made. A new mutation replaces a queued one with the same target (a
/// favorite toggled on, off, on offline is sent once), moving to the end so order holds.
public actor OfflineQueue {
    let fileSystem: any CacheFileSystem
    let path: String
    private var loaded: [Mutation]?

    public init(fileSystem: any CacheFileSystem, path: String = "offline-queue.json") {
        self.fileSystem = fileSystem
        self.path = path
    }

    public var pending: [Mutation] { entries() }

    public func enqueue(_ mutation: Mutation) throws {
        var queue = entries().filter { $0.target != mutation.target }
        queue.append(mutation)
        try save(queue)
    }

    /// Drops whatever is queued for this target (the user's latest change already matches
    /// what the server has).
    public func cancel(matching mutation: Mutation) throws {
        let queue = entries()
        let kept = queue.filter { $0.target != mutation.target }
        if kept.count != queue.count { try save(kept) }
    }

    /// Removes the first entry if it is still `mutation` (it may have been replaced meanwhile).
    public func removeFirst(ifEqualTo mutation: Mutation) throws {
        var queue = entries()
        guard queue.first == mutation else { return }
        queue.removeFirst()
        try save(queue)
    }

    private func entries() -> [Mutation] {
        if let loaded { return loaded }
        // An unreadable queue file is dropped rather than blocking every future change.
        let decoded = (try? fileSystem.read(path)).flatMap { $0 }.flatMap { try? JSONDecoder().decode([Mutation].self, from: $0) } ?? []
        loaded = decoded
        return decoded
    }

    private func save(_ queue: [Mutation]) throws {
        try fileSystem.write(try JSONEncoder().encode(queue), to: path)
        loaded = queue
    }
}
