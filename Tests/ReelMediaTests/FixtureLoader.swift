import Foundation
import ReelMedia

/// Reads files from the copied `Fixtures` resource folder.
enum Fixture {
    static func data(_ relativePath: String) throws -> Data {
        guard let base = Bundle.module.resourceURL?.appendingPathComponent("Fixtures") else {
            throw FixtureError.missing(relativePath)
        }
        return try Data(contentsOf: base.appendingPathComponent(relativePath))
    }

    static func text(_ relativePath: String) throws -> String {
        String(decoding: try data(relativePath), as: UTF8.self)
    }

    static func probe(_ name: String) throws -> MediaProbe {
        try FFprobe.decode(data("probe/\(name).json"))
    }

    enum FixtureError: Error { case missing(String) }
}
