import Crypto
import Foundation
import ReelModels

/// Files on disk that outlive the process: a time-to-live (24 h by default) and a size cap,
/// least recently used evicted first. Each entry carries its key, the time it was stored and
/// a checksum, so a truncated or scribbled file (a crash mid-write on an old file system, a
/// full disk) is detected, deleted and reported as a miss instead of being played.
public actor DiskCache {
    public nonisolated let fileSystem: any CacheFileSystem
    public nonisolated let directory: String
    public nonisolated let timeToLive: TimeInterval
    public nonisolated let sizeLimit: Int
    let clock: any ReelClock
    private var index: [String: (size: Int, lastUse: Date)]?
    public private(set) var corruptEntriesRemoved = 0

    static let magic = Data("RKC1".utf8)

    public init(
        fileSystem: any CacheFileSystem, directory: String = "media-cache", timeToLive: TimeInterval = 24 * 3600,
        sizeLimit: Int = 500 * 1024 * 1024, clock: any ReelClock = SystemClock()
    ) {
        self.fileSystem = fileSystem
        self.directory = directory
        self.timeToLive = timeToLive
        self.sizeLimit = sizeLimit
        self.clock = clock
    }

    public var totalSize: Int { loadedIndex().values.reduce(0) { $0 + $1.size } }
    public var count: Int { loadedIndex().count }

    public func data(for key: CacheKey) -> Data? {
        let name = Self.fileName(for: key)
        guard let bytes = try? fileSystem.read(path(name)) else {
            index?[name] = nil
            return nil
        }
        guard let entry = Self.decode(bytes), entry.key == key.rawValue else {
            corruptEntriesRemoved += 1
            discard(name)
            return nil
        }
        guard clock.now().timeIntervalSince(entry.storedAt) < timeToLive else {
            discard(name)
            return nil
        }
        index?[name]?.lastUse = clock.now()
        return entry.payload
    }

    /// Best effort: a write that fails (disk full) leaves the cache as it was.
    public func store(_ data: Data, for key: CacheKey) {
        let name = Self.fileName(for: key)
        let bytes = Self.encode(key: key, payload: data, storedAt: clock.now())
        guard bytes.count <= sizeLimit else { return }
        _ = loadedIndex()
        do {
            try fileSystem.write(bytes, to: path(name))
        } catch {
            return
        }
        index?[name] = (bytes.count, clock.now())
        evictToLimit()
    }

    public func remove(_ key: CacheKey) {
        discard(Self.fileName(for: key))
    }

    /// Deletes every expired or unreadable entry (at launch, or from a background task).
    public func removeExpired() {
        for name in loadedIndex().keys {
            guard let bytes = try? fileSystem.read(path(name)), let entry = Self.decode(bytes) else {
                corruptEntriesRemoved += 1
                discard(name)
                continue
            }
            if clock.now().timeIntervalSince(entry.storedAt) >= timeToLive { discard(name) }
        }
    }

    // MARK: - Internals

    func path(_ name: String) -> String { directory + "/" + name }

    private func discard(_ name: String) {
        try? fileSystem.remove(path(name))
        index?[name] = nil
    }

    /// Built once from the directory listing; file dates stand in for last use across launches.
    private func loadedIndex() -> [String: (size: Int, lastUse: Date)] {
        if let index { return index }
        var built: [String: (size: Int, lastUse: Date)] = [:]
        for name in (try? fileSystem.list(directory)) ?? [] where name.hasSuffix(".entry") {
            if let attributes = try? fileSystem.attributes(path(name)) { built[name] = (attributes.size, attributes.modified) }
        }
        index = built
        return built
    }

    private func evictToLimit() {
        var total = totalSize
        guard total > sizeLimit, let current = index else { return }
        for (name, entry) in current.sorted(by: { $0.value.lastUse < $1.value.lastUse }) where total > sizeLimit {
            discard(name)
            total -= entry.size
        }
    }

    static func fileName(for key: CacheKey) -> String {
        Hex.lowercase(SHA256.hash(data: Data(key.rawValue.utf8))) + ".entry"
    }

    // Layout: magic(4) storedAt(8, bit pattern) keyLength(4) key payloadLength(8) checksum(8) payload.
    static func encode(key: CacheKey, payload: Data, storedAt: Date) -> Data {
        var bytes = magic
        append(storedAt.timeIntervalSince1970.bitPattern, to: &bytes)
        let keyBytes = Data(key.rawValue.utf8)
        append(UInt32(keyBytes.count), to: &bytes)
        bytes += keyBytes
        append(UInt64(payload.count), to: &bytes)
        bytes += checksum(payload)
        bytes += payload
        return bytes
    }

    static func decode(_ bytes: Data) -> (key: String, storedAt: Date, payload: Data)? {
        var reader = ByteReader(bytes: bytes)
        guard reader.take(4) == magic, let time = reader.integer(UInt64.self), let keyLength = reader.integer(UInt32.self),
              let keyBytes = reader.take(Int(keyLength)), let key = String(data: keyBytes, encoding: .utf8),
              let length = reader.integer(UInt64.self), let sum = reader.take(8), let payload = reader.take(Int(length)),
              reader.isAtEnd, checksum(payload) == sum
        else { return nil }
        return (key, Date(timeIntervalSince1970: Double(bitPattern: time)), payload)
    }

    static func checksum(_ payload: Data) -> Data {
        Data(SHA256.hash(data: payload).prefix(8))
    }

    static func append<T: FixedWidthInteger>(_ value: T, to data: inout Data) {
        withUnsafeBytes(of: value.bigEndian) { data.append(contentsOf: $0) }
    }
}

/// Reads big-endian fields from the front of a buffer, failing (nil) instead of trapping.
struct ByteReader {
    let bytes: Data
    var offset: Int

    init(bytes: Data) {
        self.bytes = bytes
        offset = bytes.startIndex
    }

    var isAtEnd: Bool { offset == bytes.endIndex }

    mutating func take(_ count: Int) -> Data? {
        guard count >= 0, bytes.endIndex - offset >= count else { return nil }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    mutating func integer<T: FixedWidthInteger>(_ type: T.Type) -> T? {
        guard let slice = take(MemoryLayout<T>.size) else { return nil }
        return slice.reduce(T(0)) { ($0 << 8) | T($1) }
    }
}
