import Foundation

/// Where finished generations wait for their creator's decision: `<data>/generations/<id>.mp4`.
/// Named by id only, so no request text ever becomes part of the path.
public struct GenerationFiles: Sendable {
    public let root: URL

    public init(root: URL) {
        self.root = root
    }

    public func result(_ id: Int64) -> URL {
        root.appendingPathComponent("\(id).mp4")
    }

    public func prepare() throws {
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    public func remove(_ id: Int64) {
        try? FileManager.default.removeItem(at: result(id))
    }
}
