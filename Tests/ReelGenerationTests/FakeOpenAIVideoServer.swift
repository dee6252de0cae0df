import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore

/// A local stand-in for OpenAI's Videos API, speaking its documented wire format, because the
/// real one is paid and unreachable here. It checks what a real server would (bearer key,
/// multipart fields) and plays out a job: queued → in_progress (progress grows with each
/// poll) → completed, or failed with a moderation code when the prompt says so.
actor FakeOpenAIVideoState {
    struct Job {
        var fields: [String: String]
        var polls = 0
        var failure: (code: String, message: String)?
    }

    var jobs: [String: Job] = [:]
    var requests: [String] = []
    static let content = Data((0..<70_000).map { UInt8(truncatingIfNeeded: $0 * 7) })

    func record(_ line: String) { requests.append(line) }

    func create(fields: [String: String]) -> String {
        let id = "video_\(jobs.count + 1)"
        var job = Job(fields: fields)
        if fields["prompt"]?.contains("forbidden") == true {
            job.failure = ("moderation_blocked", "Your request was blocked by our moderation system.")
        } else if fields["prompt"]?.contains("glitch") == true {
            job.failure = ("internal_error", "Video generation failed.")
        }
        jobs[id] = job
        return id
    }

    /// The job as the API shows it, one step further along than last time.
    func poll(_ id: String) -> String? {
        guard var job = jobs[id] else { return nil }
        job.polls += 1
        jobs[id] = job
        let base = #""id":"\#(id)","object":"video","model":"\#(job.fields["model"] ?? "")","size":"\#(job.fields["size"] ?? "")","seconds":"\#(job.fields["seconds"] ?? "")","created_at":1760000000"#
        switch job.polls {
        case 1: return "{\(base),\"status\":\"queued\",\"progress\":0,\"error\":null}"
        case 2: return "{\(base),\"status\":\"in_progress\",\"progress\":40,\"error\":null}"
        default:
            if let failure = job.failure {
                return "{\(base),\"status\":\"failed\",\"progress\":100,\"error\":{\"code\":\"\(failure.code)\",\"message\":\"\(failure.message)\"}}"
            }
            return "{\(base),\"status\":\"completed\",\"progress\":100,\"error\":null}"
        }
    }

    func isCompleted(_ id: String) -> Bool { (jobs[id]?.polls ?? 0) >= 3 && jobs[id]?.failure == nil }
}

enum FakeOpenAIVideoServer {
    static let apiKey = "sk-test-0123456789"

    /// Runs `body` against a fresh fake server listening on a loopback port.
    static func withLive(_ body: @Sendable (_ baseURL: String, _ state: FakeOpenAIVideoState) async throws -> Void) async throws {
        let state = FakeOpenAIVideoState()
        let app = Application(router: router(state: state), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            guard let port = client.port else { throw HTTPError(.internalServerError, message: "the test server has no port") }
            try await body("http://127.0.0.1:\(port)", state)
        }
    }

    static func router(state: FakeOpenAIVideoState) -> Router<BasicRequestContext> {
        let router = Router()
        router.post("/v1/videos") { request, context -> Response in
            guard authorized(request) else { return error(.unauthorized, code: "invalid_api_key", "Incorrect API key provided.") }
            guard let type = request.headers[.contentType], type.hasPrefix("multipart/form-data; boundary="),
                  let boundary = type.split(separator: "=", maxSplits: 1).last.map(String.init) else {
                return error(.badRequest, code: "invalid_request", "Expected multipart/form-data.")
            }
            let body = try await request.body.collect(upTo: 1 << 20)
            let fields = parseMultipart(String(buffer: body), boundary: boundary)
            await state.record("POST /v1/videos \(fields["model"] ?? "-") \(fields["size"] ?? "-") \(fields["seconds"] ?? "-")")
            guard fields["model"] == "sora-2", let prompt = fields["prompt"], !prompt.isEmpty else {
                return error(.badRequest, code: "invalid_request", "model and prompt are required.")
            }
            if prompt.contains("blocked at create") {
                return error(.badRequest, code: "moderation_blocked", "This prompt violates our usage policies.")
            }
            if prompt.contains("overloaded") {
                return error(.internalServerError, code: "server_error", "The server had an error processing your request.")
            }
            let id = await state.create(fields: fields)
            return json(await state.poll(id) ?? "{}")
        }
        router.get("/v1/videos/{id}") { request, context -> Response in
            guard authorized(request) else { return error(.unauthorized, code: "invalid_api_key", "Incorrect API key provided.") }
            let id = try context.parameters.require("id")
            await state.record("GET /v1/videos/\(id)")
            guard let body = await state.poll(id) else { return error(.notFound, code: "not_found", "Video \(id) not found.") }
            return json(body)
        }
        router.get("/v1/videos/{id}/content") { request, context -> Response in
            guard authorized(request) else { return error(.unauthorized, code: "invalid_api_key", "Incorrect API key provided.") }
            let id = try context.parameters.require("id")
            await state.record("GET /v1/videos/\(id)/content")
            guard await state.isCompleted(id) else { return error(.notFound, code: "not_found", "Video content is not available.") }
            return Response(status: .ok, headers: [.contentType: "video/mp4"], body: .init(byteBuffer: ByteBuffer(bytes: FakeOpenAIVideoState.content)))
        }
        return router
    }

    static func authorized(_ request: Request) -> Bool {
        request.headers[.authorization] == "Bearer \(apiKey)"
    }

    static func json(_ text: String) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    static func error(_ status: HTTPResponse.Status, code: String, _ message: String) -> Response {
        let text = #"{"error":{"message":"\#(message)","type":"invalid_request_error","param":null,"code":"\#(code)"}}"#
        return Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    static func parseMultipart(_ body: String, boundary: String) -> [String: String] {
        var fields: [String: String] = [:]
        for part in body.components(separatedBy: "--\(boundary)") {
            guard let nameRange = part.range(of: "name=\""),
                  let nameEnd = part[nameRange.upperBound...].firstIndex(of: "\""),
                  let valueStart = part.range(of: "\r\n\r\n") else { continue }
            var value = String(part[valueStart.upperBound...])
            // "\r\n" is one Character in Swift, so one `removeLast()` drops the whole line break.
            if value.hasSuffix("\r\n") { value.removeLast() }
            fields[String(part[nameRange.upperBound..<nameEnd])] = value
        }
        return fields
    }
}
