import Foundation
import Testing
import ReelTestFiles

/// The checked-in sample sidecars (invented people and posts, shaped like the real tools' output).
enum Fixture {
    static func url(_ name: String) -> URL {
        guard let folder = Bundle.module.url(forResource: "Fixtures", withExtension: nil) else {
            fatalError("the Fixtures folder is missing from the test bundle")
        }
        return folder.appendingPathComponent(name)
    }

    static func data(_ name: String) throws -> Data {
        try Data(contentsOf: url(name))
    }

    /// What the pipeline does for `.json.xz`: run the system's `xz -dc`.
    static func decompressXZ(_ file: URL) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/xz")
        process.arguments = ["-dc", "--", file.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw XZFailure(status: process.terminationStatus) }
        return data
    }

    struct XZFailure: Error, CustomStringConvertible {
        let status: Int32
        var description: String { "xz exited with status \(status)" }
    }
}

/// A folder tree built by a test and deleted when the test's value goes away.
final class TemporaryTree {
    let root: URL

    init() throws {
        root = TemporaryFolder.fresh("reel-import").resolvingSymlinksInPath()
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: root)
    }

    /// Creates `relativePath` (and its folders) holding `contents`.
    @discardableResult
    func file(_ relativePath: String, _ contents: String = "x") throws -> URL {
        let url = root.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: url)
        return url
    }

    func files(_ relativePaths: String...) throws {
        for path in relativePaths { try file(path) }
    }

    func folder(_ relativePath: String) throws {
        try FileManager.default.createDirectory(at: root.appendingPathComponent(relativePath), withIntermediateDirectories: true)
    }

    /// A symbolic link at `relativePath` whose target is `destination`, written as given.
    func link(_ relativePath: String, to destination: String) throws {
        let url = root.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: destination)
    }

    func url(_ relativePath: String) -> URL {
        root.appendingPathComponent(relativePath)
    }
}
