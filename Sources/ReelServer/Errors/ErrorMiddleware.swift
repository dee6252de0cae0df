import Foundation
import Hummingbird
import Logging
import ReelStore

/// Maps every error to `APIError` in one place. Unknown errors become a logged 500 with a
/// generic message: a client never sees a stack, a path or an SQL statement.
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            throw Self.map(error, request: request, logger: context.logger)
        }
    }

    static func map(_ error: any Error, request: Request, logger: Logger) -> APIError {
        switch error {
        case let error as APIError:
            return error
        case let error as StoreError:
            switch error {
            case .notFound(let what): return .notFound(what)
            case .conflict(let why): return .conflict(why)
            case .invalid(let why): return .badRequest(why)
            case .corrupt, .unavailable:
                logger.error("store failure", metadata: ["error": "\(error)", "path": "\(request.uri.path)"])
                return .internalError
            }
        case is DecodingError:
            return .badRequest("the request body is not valid JSON of the expected shape: \(Self.describe(error as! DecodingError))")
        case let error as HTTPError:
            switch error.status {
            case .contentTooLarge: return .payloadTooLarge(0)
            case .notFound: return .notFound(Self.shortPath(request))
            case .methodNotAllowed: return .notFound("\(request.method) \(Self.shortPath(request))")
            case .unauthorized: return .unauthorized
            default:
                if error.status.code < 500 { return .badRequest(error.body ?? error.status.reasonPhrase) }
                logger.error("http error", metadata: ["error": "\(error)"])
                return .internalError
            }
        default:
            logger.error("unhandled error", metadata: ["error": "\(error)", "path": "\(request.uri.path)"])
            return .internalError
        }
    }

    /// The path as echoed in a 404: bounded, so a 5,000-character probe is not sent back whole.
    static func shortPath(_ request: Request) -> String {
        let path = request.uri.path
        return path.count <= 120 ? path : String(path.prefix(120)) + "…"
    }

    /// Names the field that was wrong without echoing the body back.
    static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map(\.stringValue).joined(separator: ".")
            return keys.isEmpty ? "body" : keys
        }
        switch error {
        case .typeMismatch(_, let context): return "\(path(context)) has the wrong type"
        case .valueNotFound(_, let context): return "\(path(context)) is missing"
        case .keyNotFound(let key, let context): return "\(path(context) == "body" ? "" : path(context) + ".")\(key.stringValue) is missing"
        case .dataCorrupted(let context): return "\(path(context)) is malformed"
        @unknown default: return "malformed"
        }
    }
}
