import Foundation
import ReelJobs
import ReelStorage
import ReelStorageLocal
import Testing
@testable import ReelPipeline
import ReelTestFiles

@Suite("Data folder and media storage")
struct StorageTests {
    let root = TemporaryFolder.fresh("reel-storage")

    @Test func sourcePathsFromTheDatabaseAreValidatedBeforeUse() throws {
        let folder = DataFolder(root: root)
        #expect(try folder.sourceURL("sources/abc123.mp4").path.hasSuffix("/sources/abc123.mp4"))
        for bad in ["../etc/passwd", "sources/../../x", "sources/.hidden", "media/1/master.m3u8", "sources/a/b.mp4", "/abs"] {
            #expect(throws: PipelineError.self) { try folder.sourceURL(bad) }
        }
    }

    @Test func publishMovesTheWholeFolderAndReplacesLeftovers() async throws {
        let storage = LocalMediaStorage(root: root.appendingPathComponent("media"))
        let staged = root.appendingPathComponent("tmp/job-1/out")
        try FileManager.default.createDirectory(at: staged.appendingPathComponent("720p"), withIntermediateDirectories: true)
        try Data("new".utf8).write(to: staged.appendingPathComponent("720p/index.m3u8"))
        // A previous attempt that moved its files and died before the database said `ready`.
        let leftover = root.appendingPathComponent("media/7")
        try FileManager.default.createDirectory(at: leftover, withIntermediateDirectories: true)
        try Data("old".utf8).write(to: leftover.appendingPathComponent("stale.m4s"))

        try await storage.publish(stagedDirectory: staged, postKey: "7")

        #expect(!FileManager.default.fileExists(atPath: staged.path))
        #expect(!FileManager.default.fileExists(atPath: leftover.appendingPathComponent("stale.m4s").path))
        let published = try String(contentsOf: leftover.appendingPathComponent("720p/index.m3u8"), encoding: .utf8)
        #expect(published == "new")
        #expect(try await storage.postKeys() == ["7"])
    }

    @Test("Ranged reads of a local file: within, past the end (clamped, as HTTP), starting past the end (nil)")
    func rangedReads() async throws {
        let storage = LocalMediaStorage(root: root.appendingPathComponent("media"))
        let staged = root.appendingPathComponent("tmp/job-2/out")
        try FileManager.default.createDirectory(at: staged, withIntermediateDirectories: true)
        let bytes = Data((0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        try bytes.write(to: staged.appendingPathComponent("seg.m4s"))
        try await storage.publish(stagedDirectory: staged, postKey: "8")

        let inside = try #require(try await storage.object(postKey: "8", relativePath: "seg.m4s", range: 10...19))
        #expect(inside.bytes == bytes[10...19])
        #expect(inside.range == 10...19)
        let past = try #require(try await storage.object(postKey: "8", relativePath: "seg.m4s", range: 900...5000))
        #expect(past.bytes == bytes[900...])
        #expect(past.range == 900...999)
        #expect(past.size == 1000)
        #expect(past.etag == inside.etag)
        #expect(try await storage.object(postKey: "8", relativePath: "seg.m4s", range: 1000...1001) == nil)
        #expect(try await storage.object(postKey: "8", relativePath: "seg.m4s", range: nil)?.bytes == bytes)
    }

    @Test func postKeysMustBeIDs() async throws {
        let storage = LocalMediaStorage(root: root.appendingPathComponent("media"))
        for bad in ["..", "../x", "1/2", "", "abc", "１"] {
            await #expect(throws: PipelineError.self) { try await storage.remove(postKey: bad) }
        }
    }

    @Test func sourcesAreKeptByHashAndLinkedWhenPossible() throws {
        let folder = DataFolder(root: root)
        try folder.prepare()
        let original = root.appendingPathComponent("clip.MP4")
        try Data("video bytes".utf8).write(to: original)
        let hash = try ContentHasher.sha256(of: original)
        #expect(hash == ContentHasher.sha256(of: Data("video bytes".utf8)))
        let kept = try SourceStore(dataFolder: folder).keep(original, contentHash: hash)
        #expect(kept == "sources/\(hash).mp4")
        #expect(try Data(contentsOf: folder.sourceURL(kept)) == Data("video bytes".utf8))
        // Keeping the same content twice is a no-op.
        #expect(try SourceStore(dataFolder: folder).keep(original, contentHash: hash) == kept)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.sourcesRoot.path)
        #expect(leftovers == ["\(hash).mp4"])
    }

    @Test func ffmpegFailuresAreClassified() {
        #expect(FFmpegFailure.classify("x\n[mov] moov atom not found\nfoo.mp4: Invalid data found when processing input\n")
            == .invalidInput("ffmpeg failed: x / [mov] moov atom not found / foo.mp4: Invalid data found when processing input"))
        if case .transient = FFmpegFailure.classify("No space left on device") {} else {
            Issue.record("a full disk is worth retrying")
        }
    }
}

@Suite("Blocking file work")
struct BlockingIOTests {
    @Test("runs on NIO's thread pool, not on a cooperative-pool thread, and passes errors through")
    func runsOnThePool() async throws {
        let name = try await BlockingIO.run { Thread.current.name ?? "" }
        #expect(name.contains("TP-#"), "ran on \(name)")  // NIO names its pool threads "SGLTN-TP-#n"
        await #expect(throws: PipelineError.self) {
            try await BlockingIO.run { () -> Int in throw PipelineError.storage("unreadable") }
        }
    }
}
