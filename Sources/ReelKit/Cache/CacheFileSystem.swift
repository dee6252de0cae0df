import Foundation

/// The few file operations ReelKit's disk cache, offline queue and resume store need, so
/// tests run them on an in-memory file system with an injected clock.
/// Paths are relative to the file system's root, `/`-separated.
public protocol CacheFileSystem: Sendable {
    func read(_ path: String) throws -> Data?
    /// Replaces the file atomically (a reader sees the old or the new bytes, never a mix).
    func write(_ data: Data, to path: String) throws
    func remove(_ path: String) throws
    /// Files directly inside `directory` (names only); empty when it does not exist.
    func list(_ directory: String) throws -> [String]
    func attributes(_ path: String) throws -> FileAttributes?
}

public struct FileAttributes: Sendable, Equatable {
    public var size: Int
    public var modified: Date

    public init(size: Int, modified: Date) {
        self.size = size
        self.modified = modified
    }
}

/// The real one, rooted at a folder (an app's Caches or Application Support directory).
public struct LocalFileSystem: CacheFileSystem {
    public let root: URL

    public init(root: URL) {
        self.root = root
    }

    func url(_ path: String) -> URL { root.appendingPathComponent(path) }

    public func read(_ path: String) throws -> Data? {
        let url = url(path)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try Data(contentsOf: url)
    }

    public func write(_ data: Data, to path: String) throws {
        let url = url(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url, options: .atomic)
    }

    public func remove(_ path: String) throws {
        let url = url(path)
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        try FileManager.default.removeItem(at: url)
    }

    public func list(_ directory: String) throws -> [String] {
        let url = url(directory)
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        return try FileManager.default.contentsOfDirectory(atPath: url.path)
    }

    public func attributes(_ path: String) throws -> FileAttributes? {
        let url = url(path)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let values = try FileManager.default.attributesOfItem(atPath: url.path)
        return FileAttributes(
            size: (values[.size] as? NSNumber)?.intValue ?? 0, modified: values[.modificationDate] as? Date ?? Date.distantPast
        )
    }
}

/// Files in a dictionary, dated by an injected clock. Tests can corrupt or drop files at will.
public final class InMemoryFileSystem: CacheFileSystem, @unchecked Sendable {
    private let lock = NSLock()
    private var files: [String: (data: Data, modified: Date)] = [:]
    private let clock: any ReelClock
    /// When set, every write throws it (a full disk, a read-only volume).
    public var failWrites: (any Error)? {
        get { lock.withLock { writeError } }
        set { lock.withLock { writeError = newValue } }
    }
    private var writeError: (any Error)?

    public init(clock: any ReelClock = SystemClock()) {
        self.clock = clock
    }

    public func read(_ path: String) throws -> Data? {
        lock.withLock { files[path]?.data }
    }

    public func write(_ data: Data, to path: String) throws {
        try lock.withLock {
            if let writeError { throw writeError }
            files[path] = (data, clock.now())
        }
    }

    public func remove(_ path: String) throws {
        _ = lock.withLock { files.removeValue(forKey: path) }
    }

    public func list(_ directory: String) throws -> [String] {
        let prefix = directory.isEmpty || directory.hasSuffix("/") ? directory : directory + "/"
        return lock.withLock {
            files.keys.filter { $0.hasPrefix(prefix) && !$0.dropFirst(prefix.count).contains("/") }.map { String($0.dropFirst(prefix.count)) }
        }
    }

    public func attributes(_ path: String) throws -> FileAttributes? {
        lock.withLock { files[path].map { FileAttributes(size: $0.data.count, modified: $0.modified) } }
    }

    /// Every path, sorted (for assertions).
    public var paths: [String] { lock.withLock { files.keys.sorted() } }
}
