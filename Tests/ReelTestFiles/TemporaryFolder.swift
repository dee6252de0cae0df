import Foundation

/// The one way tests make temporary files and folders: a fresh, unique place under the system
/// temp directory, named after what it is for. Foundation only, so every test target can use it
/// without linking the server (ReelTestSupport builds its SQLite libraries on it).
public struct TemporaryFolder: Sendable {
    public let url: URL

    /// A new folder, created now; `remove()` deletes it with everything inside.
    public init(prefix: String = "reel-tests") throws {
        url = Self.fresh(prefix)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    public var path: String { url.path }

    public func remove() { try? FileManager.default.removeItem(at: url) }

    /// A unique path (`<temp>/<prefix>-<UUID><suffix>`) that nothing has made yet: for a folder
    /// the code under test creates itself, or a single file (`suffix: ".mp4"`).
    public static func fresh(_ prefix: String, suffix: String = "") -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)\(suffix)", isDirectory: suffix.isEmpty)
    }
}
