import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import ReelGeneration
import ReelJobs
import ReelModels
import ReelPipeline
import ReelServer
import ReelStorage
import ReelStore
import ReelStoreSQLite
import Testing

@Suite("Generation routes: prompt → private preview → publish, discard, regenerate")
struct GenerationRoutesTests {
    /// Runs the generation's jobs (real local ffmpeg provider) until `id` leaves queued/running.
    func finish(_ server: TestServer, _ id: Int64) async throws -> Generation {
        let handler = GenerationJobHandler(
            store: server.store, providers: server.generations.providers, files: server.generations.files, logger: Logger(label: "test")
        )
        let worker = JobWorker(
            store: server.store, handlers: [handler], configuration: JobWorkerConfiguration(workerID: "test"), logger: Logger(label: "test")
        )
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            _ = try await worker.runOnce()
            let generation = try #require(try await server.store.generation(id: id))
            if !generation.state.isActive { return generation }
            try await Task.sleep(for: .milliseconds(100))
        }
        return try #require(try await server.store.generation(id: id))
    }

    @Test("a prompt becomes a private preview, then a post that goes through the normal pipeline")
    func lifecycle() async throws {
        let server = try await TestServer()
        defer { try? FileManager.default.removeItem(at: server.root) }
        try await server.application().test(.router) { client in
            let providers = try decode(APIList<APIGenerationProvider>.self, try await client.send(.get, "/api/v1/generations/providers", key: server.memberKey).body)
            #expect(providers.items.map(\.id) == ["local"] && providers.items[0].local && providers.items[0].isDefault)

            let created = try await client.send(.post, "/api/v1/generations", key: server.memberKey, json: #"{"prompt":"  Harbour lights at dusk  ","style":"sunset"}"#)
            #expect(created.status == .accepted)
            let generation = try decode(APIGeneration.self, created.body)
            #expect(generation.state == "queued" && generation.prompt == "Harbour lights at dusk" && generation.width == 720 && generation.previewUrl == nil)

            // Someone else's generation does not exist for you.
            #expect(try await client.send(.get, "/api/v1/generations/\(generation.id)", key: server.ownerKey).status == .notFound)

            let finished = try await finish(server, generation.id)
            #expect(finished.state == .ready, "\(finished.failureReason ?? "")")
            let ready = try decode(APIGeneration.self, try await client.send(.get, "/api/v1/generations/\(generation.id)", key: server.memberKey).body)
            #expect(ready.previewUrl == "/api/v1/generations/\(generation.id)/preview.mp4" && ready.progress == 1)

            let preview = try await client.send(.get, ready.previewUrl!, key: server.memberKey)
            #expect(preview.status == .ok && preview.headers[.contentType] == "video/mp4" && preview.body.count > 10_000)
            #expect(preview.headers[.cacheControl] == "private, no-store")
            let ranged = try await client.send(.get, ready.previewUrl!, key: server.memberKey, headers: [.range: "bytes=0-99"])
            #expect(ranged.status == .partialContent && ranged.body.count == 100)
            #expect(try await client.send(.get, ready.previewUrl!, key: server.ownerKey).status == .notFound)

            let published = try await client.send(
                .post, "/api/v1/generations/\(generation.id)/publish", key: server.memberKey, json: #"{"description":"Made here","tags":["dusk"]}"#
            )
            #expect(published.status == .ok)
            let result = try decode(APIGenerationPublished.self, published.body)
            #expect(result.generation.state == "published" && result.generation.postId == result.postId && result.jobIds.count == 1)
            let post = try #require(try await server.store.post(id: result.postId))
            #expect(post.status == .queued && post.metadata.uploader == "member" && post.metadata.description == "Made here")
            #expect(Set(post.metadata.tags).isSuperset(of: ["generated", "local", "dusk"]))
            #expect(!FileManager.default.fileExists(atPath: server.generations.files.result(generation.id).path))
            #expect(try await client.send(.post, "/api/v1/generations/\(generation.id)/publish", key: server.memberKey, json: "{}").status == .conflict)
            #expect(try await client.send(.post, "/api/v1/generations/\(generation.id)/discard", key: server.memberKey).status == .conflict)
        }
    }

    @Test("regenerate keeps the settings and links the parent; discard removes the preview")
    func regenerateAndDiscard() async throws {
        let server = try await TestServer()
        defer { try? FileManager.default.removeItem(at: server.root) }
        try await server.application().test(.router) { client in
            let first = try decode(APIGeneration.self, try await client.send(
                .post, "/api/v1/generations", key: server.memberKey, json: #"{"prompt":"a red kite","orientation":"landscape","style":"matrix"}"#
            ).body)
            let again = try await client.send(.post, "/api/v1/generations/\(first.id)/regenerate", key: server.memberKey, json: #"{"prompt":"a blue kite"}"#)
            #expect(again.status == .accepted)
            let second = try decode(APIGeneration.self, again.body)
            #expect(second.parentId == first.id && second.prompt == "a blue kite" && second.style == "matrix" && second.width == 1280)
            let ready = try await finish(server, first.id)
            #expect(ready.state == .ready)
            let discarded = try decode(APIGeneration.self, try await client.send(.post, "/api/v1/generations/\(first.id)/discard", key: server.memberKey).body)
            #expect(discarded.state == "discarded" && discarded.previewUrl == nil)
            #expect(!FileManager.default.fileExists(atPath: server.generations.files.result(first.id).path))
            let list = try decode(APIList<APIGeneration>.self, try await client.send(.get, "/api/v1/generations", key: server.memberKey).body)
            #expect(list.items.map(\.id) == [second.id, first.id])
        }
    }

    @Test("bad requests are 400 with a reason; the daily quota and the per-minute limit are 429")
    func limitsAndValidation() async throws {
        let server = try await TestServer { $0[GenerationSettings.self].generationsPerDay = 3; $0[GenerationSettings.self].generationsPerMinute = 100 }
        defer { try? FileManager.default.removeItem(at: server.root) }
        try await server.application().test(.router) { client in
            for (body, message) in [
                (#"{"prompt":"   "}"#, "the prompt is empty"),
                (#"{"prompt":"x","style":"neon"}"#, "style must be one of aurora, sunset, matrix, mono"),
                (#"{"prompt":"x","orientation":"square"}"#, "orientation must be portrait or landscape"),
                (#"{"prompt":"x","seconds":5}"#, "seconds must be one of 4, 8, 12"),
                (#"{"prompt":"x","provider":"openai"}"#, "unknown provider openai; see /api/v1/generations/providers"),
                (#"{"prompt":7}"#, nil),
            ] {
                let response = try await client.send(.post, "/api/v1/generations", key: server.memberKey, json: body)
                #expect(response.status == .badRequest, "\(body)")
                let error = try decode(APIErrorBody.self, response.body)
                if let message { #expect(error.error.message == message) }
            }
            for _ in 0..<3 {
                #expect(try await client.send(.post, "/api/v1/generations", key: server.memberKey, json: #"{"prompt":"ok"}"#).status == .accepted)
            }
            let refused = try await client.send(.post, "/api/v1/generations", key: server.memberKey, json: #"{"prompt":"one more"}"#)
            #expect(refused.status == .tooManyRequests && refused.headers[.retryAfter] != nil)
            #expect(try decode(APIErrorBody.self, refused.body).error.code == "quota_exceeded")
            // The quota is per user.
            #expect(try await client.send(.post, "/api/v1/generations", key: server.ownerKey, json: #"{"prompt":"mine"}"#).status == .accepted)
            #expect(try await client.send(.get, "/api/v1/generations/abc", key: server.memberKey).status == .notFound)
            #expect(try await client.send(.get, "/api/v1/generations/999", key: server.memberKey).status == .notFound)
        }
        let limited = try await TestServer { $0[GenerationSettings.self].generationsPerMinute = 2 }
        defer { try? FileManager.default.removeItem(at: limited.root) }
        try await limited.application().test(.router) { client in
            var statuses: [HTTPResponse.Status] = []
            for _ in 0..<3 {
                statuses.append(try await client.send(.post, "/api/v1/generations", key: limited.memberKey, json: #"{"prompt":"quick"}"#).status)
            }
            #expect(statuses == [.accepted, .accepted, .tooManyRequests])
        }
    }
}
