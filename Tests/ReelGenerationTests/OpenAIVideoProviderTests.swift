import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdTesting
import ReelGeneration
import ReelGenerationOpenAI
import Testing
import ReelTestFiles

@Suite("OpenAI video provider against a server speaking its wire format")
struct OpenAIVideoProviderTests {
    /// Runs `body` with a provider pointed at a fresh fake server on a real loopback port.
    func withProvider(apiKey: String = FakeOpenAIVideoServer.apiKey, _ body: @Sendable (OpenAIVideoProvider, FakeOpenAIVideoState) async throws -> Void) async throws {
        try await FakeOpenAIVideoServer.withLive { baseURL, state in
            try await body(OpenAIVideoProvider(client: .shared, apiKey: apiKey, baseURL: baseURL + "/"), state)
        }
    }

    @Test("a job is created, polled through queued and in_progress to completed, and its content downloaded")
    func happyPath() async throws {
        try await withProvider { provider, state in
            let id = try await provider.submit(GenerationRequest(prompt: "a red fox in fresh snow", style: .sunset, seconds: 8))
            #expect(id == "video_1")
            #expect(try await provider.status(of: id) == .running(0.4))
            #expect(try await provider.status(of: id) == .completed)
            let file = TemporaryFolder.fresh("openai", suffix: ".mp4")
            defer { try? FileManager.default.removeItem(at: file) }
            try await provider.download(id, to: file)
            #expect(try Data(contentsOf: file) == FakeOpenAIVideoState.content)
            let requests = await state.requests
            #expect(requests.first == "POST /v1/videos sora-2 720x1280 8")
            #expect(requests.last == "GET /v1/videos/video_1/content")
            let prompt = await state.jobs[id]?.fields["prompt"]
            #expect(prompt?.hasPrefix("a red fox in fresh snow") == true && prompt?.contains(GenerationStyle.sunset.summary) == true)
        }
    }

    @Test("moderation: refused at creation, or a job that fails with a moderation code, is a rejection")
    func moderation() async throws {
        try await withProvider { provider, _ in
            await #expect(throws: GenerationError.rejected("This prompt violates our usage policies.")) {
                _ = try await provider.submit(GenerationRequest(prompt: "something blocked at create"))
            }
            let id = try await provider.submit(GenerationRequest(prompt: "a forbidden scene"))
            _ = try await provider.status(of: id)
            #expect(try await provider.status(of: id) == .failed(.rejected("Your request was blocked by our moderation system.")))
            let other = try await provider.submit(GenerationRequest(prompt: "a glitch"))
            _ = try await provider.status(of: other)
            #expect(try await provider.status(of: other) == .failed(.failed("Video generation failed.")))
        }
    }

    @Test("a wrong key, a server error, an unknown job and a hostile id each map to what they mean")
    func errors() async throws {
        try await withProvider(apiKey: "sk-wrong") { provider, _ in
            await #expect(throws: GenerationError.notConfigured("the provider refused the API key: Incorrect API key provided.")) {
                _ = try await provider.submit(GenerationRequest(prompt: "hello"))
            }
        }
        try await withProvider { provider, _ in
            let error = await #expect(throws: GenerationError.self) { _ = try await provider.submit(GenerationRequest(prompt: "overloaded")) }
            #expect(error?.isRetryable == true)
            await #expect(throws: GenerationError.notFound("Video video_99 not found.")) { _ = try await provider.status(of: "video_99") }
            await #expect(throws: GenerationError.invalidRequest("not a provider job id")) { _ = try await provider.status(of: "../../v1/files") }
            await #expect(throws: GenerationError.invalidRequest("the prompt is empty")) { _ = try await provider.submit(GenerationRequest(prompt: "   ")) }
        }
    }

    @Test("an unreachable provider is a transient error, worth retrying")
    func unreachable() async throws {
        let provider = OpenAIVideoProvider(client: .shared, apiKey: "k", baseURL: "http://127.0.0.1:9", timeoutSeconds: 1)
        let error = await #expect(throws: GenerationError.self) { _ = try await provider.submit(GenerationRequest(prompt: "hi")) }
        #expect(error?.isRetryable == true)
    }
}
