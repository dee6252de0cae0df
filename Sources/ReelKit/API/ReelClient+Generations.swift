import Foundation
import ReelModels

/// Prompt-to-clip generation (`/api/v1/generations`): the server generates a private preview,
/// the creator publishes, discards or regenerates it.
extension ReelClient {
    public func generationProviders() async throws(ReelAPIError) -> [APIGenerationProvider] {
        try await json(APIList<APIGenerationProvider>.self, "GET", "/api/v1/generations/providers").items
    }

    /// Queues a generation (202). A used-up daily quota is `.rateLimited` with its retry time.
    public func createGeneration(_ request: APIGenerationRequest) async throws(ReelAPIError) -> APIGeneration {
        try await json(APIGeneration.self, "POST", "/api/v1/generations", body: try encode(request))
    }

    public func generations() async throws(ReelAPIError) -> [APIGeneration] {
        try await json(APIList<APIGeneration>.self, "GET", "/api/v1/generations").items
    }

    public func generation(id: Int64) async throws(ReelAPIError) -> APIGeneration {
        try await json(APIGeneration.self, "GET", "/api/v1/generations/\(id)")
    }

    public func publishGeneration(id: Int64, _ request: APIGenerationPublishRequest = APIGenerationPublishRequest()) async throws(ReelAPIError) -> APIGenerationPublished {
        try await json(APIGenerationPublished.self, "POST", "/api/v1/generations/\(id)/publish", body: try encode(request))
    }

    public func discardGeneration(id: Int64) async throws(ReelAPIError) -> APIGeneration {
        try await json(APIGeneration.self, "POST", "/api/v1/generations/\(id)/discard")
    }

    public func regenerate(id: Int64, _ request: APIRegenerateRequest) async throws(ReelAPIError) -> APIGeneration {
        try await json(APIGeneration.self, "POST", "/api/v1/generations/\(id)/regenerate", body: try encode(request))
    }
}
