import Foundation
import ReelFeatures
import ReelKit
import ReelKitTestDoubles
import ReelModels
import ReelServer
import ReelStore
import ReelStoreSQLite
import ReelTestFiles
import ReelTestSupport
import Testing

/// Create against the live server's tus endpoint and its real ffprobe import.
@Suite(.serialized) @MainActor struct CreateModelTests {
    static func makeClip() throws -> URL { try TestMedia.makeClip(prefix: "reelfeatures-clip") }

    @Test func filesTheServerWouldRefuseAreRefusedBeforeAnyByteIsSent() async throws {
        try await withHarness(videos: 0, configure: { $0[UploadSettings.self].uploadMaxBytes = 2000 }) { harness in
            let model = CreateModel(context: try await harness.context())
            let folder = TemporaryFolder.fresh("reelfeatures-files")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let empty = folder.appendingPathComponent("empty.mp4"), text = folder.appendingPathComponent("notes.txt")
            let big = folder.appendingPathComponent("big.mov"), small = folder.appendingPathComponent("small.mp4")
            try Data().write(to: empty)
            try Data("hello".utf8).write(to: text)
            try Data(repeating: 7, count: 5000).write(to: big)
            try Data(repeating: 7, count: 1000).write(to: small)

            #expect(await model.choose(file: empty) == false && model.stage == .failed(ScreenError(.rejected, "That file is empty.")))
            #expect(await model.choose(file: text) == false && model.file == nil)
            #expect(await model.choose(file: big) == false)
            #expect(model.stage == .failed(ScreenError(.rejected, "The file is 5 kB; this server takes up to 2 kB.")))
            #expect(await model.choose(file: small) && model.file == small && model.fileSize == 1000 && model.stage == .choosing)
            let uploads = await harness.network.log.filter { $0.method == "POST" || $0.method == "PATCH" }
            #expect(uploads.isEmpty, "nothing was uploaded")
        }
    }

    @Test func aClipGoesUpAndTheScreenFollowsItsJob() async throws {
        let clip = try Self.makeClip()
        defer { try? FileManager.default.removeItem(at: clip) }
        try await withHarness(videos: 0) { harness in
            let model = CreateModel(context: try await harness.context())
            model.chunkSize = 64 * 1024
            #expect(await model.choose(file: clip))
            model.caption = "From the app #phone"
            model.tags = "app,upload"
            // The live server runs no transcode worker: the job stays queued, so the screen
            // follows it until its wait ends.
            model.jobWaitLimit = 3
            let upload = Task { await model.upload() }
            #expect(await eventually { if case .processing = model.stage { return true }; return false })
            guard case .processing(let postID, let state, _) = model.stage else { return }
            #expect(state == "queued")
            for _ in 0..<3 {
                #expect(await eventually { harness.clock.sleeperCount == 1 })
                harness.clock.advance(by: 1)
            }
            await upload.value
            let post = try #require(try await harness.server.store.post(id: postID))
            #expect(post.metadata.description == "From the app #phone" && Set(post.metadata.tags).isSuperset(of: ["app", "upload"]))
            #expect(!model.canResume)
            let chunks = await harness.network.log.filter { $0.method == "PATCH" }.count
            #expect(chunks >= 2, "sent in chunks")
        }
    }

    @Test func aJobThatFailsIsShownWithItsReason() async throws {
        let clip = try Self.makeClip()
        defer { try? FileManager.default.removeItem(at: clip) }
        try await withHarness(videos: 0) { harness in
            let model = CreateModel(context: try await harness.context())
            #expect(await model.choose(file: clip))
            let upload = Task { await model.upload() }
            #expect(await eventually { if case .processing = model.stage { return true }; return false })
            let job = try #require(try await harness.client().jobs(state: "queued").first)
            _ = try await harness.client().cancelJob(id: job.id)
            #expect(await eventually { harness.clock.sleeperCount == 1 })
            harness.clock.advance(by: 1)
            await upload.value
            guard case .failed(let error) = model.stage else {
                Issue.record("expected a failure, got \(model.stage)")
                return
            }
            #expect(error.message.contains("cancelled"))
        }
    }

    @Test func anUploadCutOffResumesAfterARelaunch() async throws {
        let clip = try Self.makeClip()
        defer { try? FileManager.default.removeItem(at: clip) }
        try await withHarness(videos: 0) { harness in
            let context = try await harness.context()
            let model = CreateModel(context: context)
            model.chunkSize = 8 * 1024
            model.asStory = true
            #expect(await model.choose(file: clip))
            await harness.network.drop("PATCH", nth: 2)
            await model.upload()
            guard case .failed(let error) = model.stage else {
                Issue.record("expected the cut-off to fail the upload, got \(model.stage)")
                return
            }
            #expect(error.kind == .offline && model.canResume)

            // The app is killed and opened again: a new model finds the upload and continues it.
            let relaunched = CreateModel(context: try await harness.context())
            #expect(relaunched.canResume)
            relaunched.jobWaitLimit = 0
            await relaunched.resume()
            guard case .processing(let postID, _, _) = relaunched.stage else {
                Issue.record("expected the resumed upload to finish, got \(relaunched.stage)")
                return
            }
            #expect(!relaunched.canResume)
            let creates = await harness.network.log.filter { $0.method == "POST" && $0.url.path.hasSuffix("/api/v1/uploads") }
            #expect(creates.count == 1, "continued, not started again")
            #expect(try await harness.server.store.post(id: postID) != nil)
        }
    }
}
