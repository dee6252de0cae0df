import Foundation
import ReelPipeline
import ReelProcess
import ReelTestFiles

/// Real, tiny media made with ffmpeg for the fake catalogue to serve: portrait clips of one
/// second and a small JPEG. Each clip carries its own `comment` so no two are the same bytes
/// (the importer recognises a file it already has by its hash).
enum TinyMedia {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func clip(_ tag: String) async throws -> Data {
        try await make("clip-\(tag).mp4", [
            "-f", "lavfi", "-i", "testsrc2=size=144x256:rate=15", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100",
            "-t", "1", "-pix_fmt", "yuv420p", "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", "-shortest",
            "-metadata", "comment=\(tag)",
        ])
    }

    static func photo(_ tag: String) async throws -> Data {
        try await make("photo-\(tag).jpg", [
            "-f", "lavfi", "-i", "testsrc2=size=200x300", "-frames:v", "1", "-metadata", "comment=\(tag)",
        ])
    }

    private static func make(_ name: String, _ arguments: [String]) async throws -> Data {
        let folder = TemporaryFolder.fresh("reel-tinymedia")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent(name)
        let made = try await FoundationProcessRunner().run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y"] + arguments + [output.path])
        guard made.succeeded else { throw Failure(description: "ffmpeg could not make \(name): \(made.stderrTail)") }
        return try Data(contentsOf: output)
    }
}
