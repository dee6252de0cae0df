import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import ReelGeneration

/// OpenAI's video generation API (`sora-2` family): create a job, poll it, download the MP4.
///
/// The API key comes from the environment (`OPENAI_API_KEY`) and is only ever sent in the
/// `Authorization` header; it never appears in errors or logs. The base URL is configurable
/// so tests point it at a local server speaking the same wire format, and so can an operator
/// with a compatible gateway.
public struct OpenAIVideoProvider: GenerationProvider {
    public let id = "openai"
    public let displayName: String
    public let isLocal = false

    let client: HTTPClient
    let baseURL: String
    let apiKey: String
    let model: String
    let timeout: TimeAmount

    public init(client: HTTPClient, apiKey: String, baseURL: String = "https://api.openai.com", model: String = "sora-2", timeoutSeconds: Int64 = 60) {
        self.client = client
        self.apiKey = apiKey
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.model = model
        self.timeout = .seconds(timeoutSeconds)
        self.displayName = "OpenAI \(model) (remote, paid)"
    }

    public func submit(_ request: GenerationRequest) async throws(GenerationError) -> String {
        let request = try request.validated()
        let boundary = "reelhouse-\(UUID().uuidString)"
        let prompt = "\(request.prompt)\n\nVisual style: \(request.style.summary)."
        let fields = OpenAIVideoWire.createFields(model: model, prompt: prompt, seconds: request.seconds, width: request.width, height: request.height)
        guard let body = OpenAIVideoWire.multipart(fields: fields, boundary: boundary) else {
            throw .invalidRequest("the prompt contains a reserved sequence")
        }
        var http = HTTPClientRequest(url: "\(baseURL)/v1/videos")
        http.method = .POST
        http.headers.add(name: "Content-Type", value: "multipart/form-data; boundary=\(boundary)")
        http.body = .bytes(ByteBuffer(data: body))
        let video = try await send(http, as: OpenAIVideoWire.Video.self)
        guard !video.id.isEmpty else { throw .transient("the provider answered without a job id") }
        return video.id
    }

    public func status(of jobID: String) async throws(GenerationError) -> GenerationProgress {
        let video = try await send(HTTPClientRequest(url: "\(baseURL)/v1/videos/\(try Self.pathSafe(jobID))"), as: OpenAIVideoWire.Video.self)
        switch video.status {
        case "queued": return .queued
        case "in_progress": return .running(video.progress.map { min(1, max(0, $0 / 100)) })
        case "completed": return .completed
        case "failed":
            let message = video.error?.message ?? "the provider reported a failure without a reason"
            return .failed(OpenAIVideoWire.isModeration(video.error?.code) ? .rejected(message) : .failed(message))
        default: return .running(nil)  // a status added later: keep polling until the deadline
        }
    }

    public func download(_ jobID: String, to file: URL) async throws(GenerationError) {
        let request = HTTPClientRequest(url: "\(baseURL)/v1/videos/\(try Self.pathSafe(jobID))/content")
        do {
            let response = try await execute(request)
            guard response.status == .ok else {
                let body = try await response.body.collect(upTo: 64 * 1024)
                throw Self.error(status: response.status, body: body)
            }
            // Streamed to disk piece by piece: a result can be tens of megabytes.
            // A failure here surfaces as FileHandle's error on the next line.
            _ = FileManager.default.createFile(atPath: file.path, contents: nil)
            let handle = try FileHandle(forWritingTo: file)
            defer { try? handle.close() }
            for try await buffer in response.body {
                try handle.write(contentsOf: Data(buffer: buffer))
            }
        } catch let error as GenerationError {
            throw error
        } catch {
            throw .transient("downloading the result failed: \(error.localizedDescription)")
        }
    }

    // MARK: - HTTP

    private func execute(_ request: HTTPClientRequest) async throws -> HTTPClientResponse {
        var request = request
        request.headers.add(name: "Authorization", value: "Bearer \(apiKey)")
        request.headers.add(name: "Accept", value: "application/json")
        return try await client.execute(request, timeout: timeout)
    }

    private func send<Value: Decodable>(_ request: HTTPClientRequest, as type: Value.Type) async throws(GenerationError) -> Value {
        let response: HTTPClientResponse
        let body: ByteBuffer
        do {
            response = try await execute(request)
            body = try await response.body.collect(upTo: 1024 * 1024)
        } catch {
            throw .transient("the provider could not be reached: \(error.localizedDescription)")
        }
        guard response.status == .ok else { throw Self.error(status: response.status, body: body) }
        do {
            return try JSONDecoder().decode(Value.self, from: Data(buffer: body))
        } catch {
            throw .transient("the provider's answer could not be read")
        }
    }

    /// Maps an error response to what it means for us; the message is the provider's own.
    static func error(status: HTTPResponseStatus, body: ByteBuffer) -> GenerationError {
        let envelope = try? JSONDecoder().decode(OpenAIVideoWire.ErrorEnvelope.self, from: Data(buffer: body))
        let message = envelope?.error.message ?? "HTTP \(status.code)"
        if OpenAIVideoWire.isModeration(envelope?.error.code) { return .rejected(message) }
        switch status.code {
        case 401, 403: return .notConfigured("the provider refused the API key: \(message)")
        case 404: return .notFound(message)
        case 400, 422: return .invalidRequest(message)
        case 408, 409, 429, 500...599: return .transient(message)
        default: return .failed(message)
        }
    }

    /// Provider ids go into a URL path: only the characters they are made of.
    static func pathSafe(_ id: String) throws(GenerationError) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")
        guard !id.isEmpty, id.count <= 128, id.allSatisfy(allowed.contains) else {
            throw .invalidRequest("not a provider job id")
        }
        return id
    }
}
