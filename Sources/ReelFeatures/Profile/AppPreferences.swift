import Foundation
import ReelKit

/// What the person sets on this device (the web app keeps the same ones in the browser).
public struct AppPreferences: Codable, Sendable, Equatable {
    /// Videos start muted until the person turns sound on.
    public var startMuted = true
    /// Captions on when a post has them, in the device's languages first.
    public var showCaptions = false
    /// Lowest rungs and no prefetch beyond the next item. `followsLowDataMode` turns it on
    /// whenever iOS's Low Data Mode is on.
    public var dataSaver = false
    public var followsLowDataMode = true
    /// The feed order the app opens with; nil lets the server choose.
    public var startMode: String?

    public init() {}

    /// The data saver in effect, given the system's Low Data Mode.
    public func savesData(lowDataMode: Bool) -> Bool {
        dataSaver || (followsLowDataMode && lowDataMode)
    }

    static let path = "preferences.json"

    static func load(from files: any CacheFileSystem) -> AppPreferences {
        (try? files.read(path)).flatMap { $0 }.flatMap { try? JSONDecoder().decode(AppPreferences.self, from: $0) } ?? AppPreferences()
    }

    func save(to files: any CacheFileSystem) throws {
        try files.write(try JSONEncoder().encode(self), to: Self.path)
    }
}
