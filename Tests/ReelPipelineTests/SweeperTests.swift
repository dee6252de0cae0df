import Foundation
import Logging
import ReelStoreSQLite
import Testing
@testable import ReelPipeline

@Suite("Sweeping leftovers of interrupted work")
struct SweeperTests {
    @Test("orphan job folders and hour-old publishing stages and renders go; fresh ones stay")
    func sweeps() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("reel-sweep-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = DataFolder(root: root)
        try folder.prepare()
        let store = try SQLiteStore.inMemory()
        let sweeper = Sweeper(
            dataFolder: folder, library: store, jobs: store, storage: LocalMediaStorage(root: folder.mediaRoot), logger: Logger(label: "test")
        )
        let now = Date()
        let fm = FileManager.default
        func make(_ url: URL, age: TimeInterval) throws {
            try fm.createDirectory(at: url, withIntermediateDirectories: true)
            try fm.setAttributes([.modificationDate: now.addingTimeInterval(-age)], ofItemAtPath: url.path)
        }
        let orphanJob = folder.workDirectory(jobID: 41)
        let oldStage = folder.publishStagingRoot.appendingPathComponent("generation-3")
        let freshStage = folder.publishStagingRoot.appendingPathComponent("generation-4")
        let oldRender = folder.generationsRoot.appendingPathComponent("work/card_old")
        let freshRender = folder.generationsRoot.appendingPathComponent("work/card_new")
        try make(orphanJob, age: 10)
        try make(oldStage, age: 7200)
        try make(freshStage, age: 60)
        try make(oldRender, age: 4000)
        try make(freshRender, age: 5)

        #expect(try await sweeper.sweep(now: now) == 3)
        #expect(!fm.fileExists(atPath: orphanJob.path) && !fm.fileExists(atPath: oldStage.path) && !fm.fileExists(atPath: oldRender.path))
        #expect(fm.fileExists(atPath: freshStage.path) && fm.fileExists(atPath: freshRender.path))
    }
}
