import Foundation

/// The parts of OpenAI's Videos API (`/v1/videos`) we speak, as its reference documents them:
/// a video job object with `id`, `status` (queued, in_progress, completed, failed), `progress`
/// (0–100) and on failure `error {code, message}`; error responses as
/// `{"error": {"message", "type", "code"}}`.
enum OpenAIVideoWire {
    struct Video: Decodable, Equatable {
        var id: String
        var status: String
        var progress: Double?
        var error: JobError?
    }

    struct JobError: Decodable, Equatable {
        var code: String?
        var message: String?
    }

    struct ErrorEnvelope: Decodable {
        struct Body: Decodable {
            var message: String?
            var type: String?
            var code: String?
        }
        var error: Body
    }

    /// `multipart/form-data` fields of a create request, in a fixed order.
    static func createFields(model: String, prompt: String, seconds: Int, width: Int, height: Int) -> [(String, String)] {
        [("model", model), ("prompt", prompt), ("seconds", String(seconds)), ("size", "\(width)x\(height)")]
    }

    /// A form body; the boundary is fixed per request by the caller and never occurs in
    /// the values (a prompt containing it is rejected by `body(fields:boundary:)`).
    static func multipart(fields: [(String, String)], boundary: String) -> Data? {
        var body = Data()
        for (name, value) in fields {
            guard !value.contains(boundary) else { return nil }
            body.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n".utf8))
            body.append(Data(value.utf8))
            body.append(Data("\r\n".utf8))
        }
        body.append(Data("--\(boundary)--\r\n".utf8))
        return body
    }

    /// Moderation refusals come back with codes like `moderation_blocked` or
    /// `content_policy_violation`; they are final for that prompt, unlike other failures.
    static func isModeration(_ code: String?) -> Bool {
        guard let code = code?.lowercased() else { return false }
        return code.contains("moderation") || code.contains("content_policy") || code.contains("safety")
    }
}
