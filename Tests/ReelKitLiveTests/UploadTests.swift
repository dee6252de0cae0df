import Foundation
import ReelKit
import ReelModels
import ReelTestSupport
import ReelStoreSQLite
import Testing
import ReelTestFiles
import ReelKitTestDoubles

/// `ReelUploader` against the real server's tus endpoint: interrupted, resumed, published.
@Suite(.serialized) struct UploadTests {
    @Test func anUploadCutOffMidwayResumesFromTheServersOffsetAndBecomesAPost() async throws {
        let clip = try makeClip()
        defer { try? FileManager.default.removeItem(at: clip) }
        let size = Int64(try Data(contentsOf: clip).count)
        try await withLiveServer(videos: 0, synthetic: 0) { server in
            let chunk = Int(size / 5) + 1
            // The third PATCH never reaches the server, as on a train going into a tunnel.
            let flaky = ConditionedTransport()
            await flaky.drop("PATCH", nth: 3)
            let client = ReelClient(baseURL: server.baseURL, credentials: .apiKey(server.ownerKey), transport: flaky)
            let uploader = ReelUploader(client: client, chunkSize: chunk)
            let metadata = ["filename": "kit clip.mp4", "description": "from ReelKit", "tags": "kit,upload", "filter": "warm"]
            let created = LocationBox()
            do throws(ReelAPIError) {
                _ = try await uploader.upload(file: clip, metadata: metadata, onCreated: { await created.set($0) })
                Issue.record("the dropped request did not surface")
            } catch {
                guard case .offline = error else { throw error }
            }
            let location = try #require(await created.value)
            let halfway = try await client.uploadStatus(at: location)
            #expect(halfway.offset == 2 * Int64(chunk) && !halfway.isComplete && halfway.length == size)

            let progress = ProgressLog()
            let done = try await uploader.upload(file: clip, metadata: metadata, location: location, onProgress: { sent, _ in await progress.add(sent) })
            #expect(done.isComplete && done.offset == size)
            let sent = await progress.values
            #expect(sent.first == 2 * Int64(chunk) && sent.last == size && sent == sent.sorted())
            let postID = try #require(done.postID)
            let jobID = try #require(done.jobID)
            let job = try await client.job(id: jobID)
            #expect(job.postId == postID && job.state == "queued")
            let post = try #require(try await server.store.post(id: postID))
            #expect(post.metadata.description == "from ReelKit" && post.metadata.tags == ["kit", "upload"] && post.filter == .warm)

            // Cancel it, then retry it: both through the typed client.
            #expect(try await client.cancelJob(id: jobID).state == "failed")
            #expect(try await client.retryJob(id: jobID).state == "queued")

            // An unfinished upload can be discarded.
            let spare = try await client.createUpload(length: 10, metadata: [:])
            try await client.deleteUpload(at: spare.location)
            // (A HEAD answer has no body, so the error carries no message.)
            await #expect(throws: ReelAPIError.notFound(message: "")) { try await client.uploadStatus(at: spare.location) }
        }
    }

    @Test func anImportSlowerThanTheLastRequestIsAwaitedUntilThePostIsNamed() async throws {
        let clip = try makeClip()
        defer { try? FileManager.default.removeItem(at: clip) }
        try await withLiveServer(videos: 0, synthetic: 0) { server in
            // The last PATCH does not wait for the import: the answer names only the import
            // job, and the uploader asks HEAD until the post is named.
            await server.stop()
            await server.answerUploadsWithin(.zero)
            try await server.start()
            let client = ReelClient(baseURL: server.baseURL, credentials: .apiKey(server.ownerKey))
            let created = try await client.createUpload(length: Int64(try Data(contentsOf: clip).count), metadata: ["filename": "slow.mp4"])
            let last = try await client.appendUpload(at: created.location, offset: 0, chunk: try Data(contentsOf: clip))
            #expect(!last.isComplete && last.offset == last.length)
            let importJob = try await client.job(id: try #require(last.jobID))
            #expect(importJob.kind == "upload_import" && importJob.uploadId == created.location.split(separator: "/").last.map(String.init))

            let done = try await ReelUploader(client: client).upload(file: clip, metadata: [:], location: created.location)
            let postID = try #require(done.postID)
            #expect(done.isComplete && done.jobID != importJob.id)
            // The post is named as soon as the import has made it; the import job is recorded as
            // finished a moment later (on a loaded machine, after the uploader's last HEAD).
            var importState = try await client.job(id: importJob.id).state
            let deadline = Date().addingTimeInterval(30)
            while importState == "running" || importState == "queued", Date() < deadline {
                try await Task.sleep(for: .milliseconds(50))
                importState = try await client.job(id: importJob.id).state
            }
            #expect(importState == "succeeded")
            #expect(try await server.store.post(id: postID) != nil)
        }
    }

    private func makeClip() throws -> URL { try TestMedia.makeClip(prefix: "reelkit-upload") }
}

actor LocationBox {
    private(set) var value: String?
    func set(_ location: String) { value = location }
}

actor ProgressLog {
    private(set) var values: [Int64] = []
    func add(_ sent: Int64) { values.append(sent) }
}
