import Foundation
import ReelStorage

/// Everything ReelS3 can fail with, in one enum. `service` carries the S3 error code
/// (`NoSuchKey`, `SignatureDoesNotMatch`, `NoSuchUpload`…) from the server's error document.
public enum S3Error: StorageFault, Equatable, CustomStringConvertible {
    /// The server answered with an error: its HTTP status, S3 code and message.
    case service(status: Int, code: String, message: String)
    /// The server answered something that is not a well-formed S3 response.
    case invalidResponse(String)
    /// The request never got an answer (connection refused, timeout…).
    case transport(String)
    /// `REELHOUSE_STORAGE` (or `--storage`) is not a usable `s3://` location.
    case invalidLocation(String)
    /// A key or post key this storage refuses to turn into an object name.
    case invalidKey(String)

    /// No answer at all: the storage is away, not refusing (the API answers 503).
    public var isUnreachable: Bool {
        if case .transport = self { return true }
        return false
    }

    /// The S3 error code, when the server sent one.
    public var code: String? {
        if case .service(_, let code, _) = self { return code }
        return nil
    }

    public var description: String {
        switch self {
        case .service(let status, let code, let message): "S3 \(status) \(code): \(message)"
        case .invalidResponse(let detail): "unexpected S3 response: \(detail)"
        case .transport(let detail): "S3 request failed: \(detail)"
        case .invalidLocation(let detail): "invalid S3 storage location: \(detail)"
        case .invalidKey(let detail): "invalid S3 key: \(detail)"
        }
    }

    /// An error document (`<Error><Code>…</Code><Message>…</Message></Error>`), or for a body-less
    /// answer (HEAD) a code named after the status as the S3 API reference does.
    static func fromResponse(status: Int, body: Data) -> S3Error {
        if let root = XMLTree.parse(body), root.name == "Error" {
            return .service(status: status, code: root.text("Code") ?? "HTTP\(status)", message: root.text("Message") ?? "")
        }
        let code = switch status {
        case 404: "NoSuchKey"
        case 403: "AccessDenied"
        case 412: "PreconditionFailed"
        case 416: "InvalidRange"
        default: "HTTP\(status)"
        }
        return .service(status: status, code: code, message: String(decoding: body.prefix(200), as: UTF8.self))
    }
}
