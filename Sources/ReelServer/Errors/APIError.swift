import Foundation
import HTTPTypes
import Hummingbird
import ReelModels

/// The one error type of the server module. Every failure a client can see is one of these;
/// `ErrorMiddleware` maps everything else (store errors, decoding errors, Hummingbird's own
/// errors) into it, so a response is always `{"error":{"code","message"}}` and never leaks
/// internals.
public enum APIError: Error, Sendable, Equatable {
    case badRequest(String)
    /// A feed cursor that is malformed, altered, for other filters, or signed with a secret
    /// the server no longer has: the client starts the feed again from a fresh first page.
    case invalidCursor(String)
    case unauthorized
    case invalidCredentials
    /// An api-key header or Bearer token was sent but matches no active key (wrong or revoked).
    case invalidAPIKey
    case forbidden(String)
    case notFound(String)
    /// The path exists, but not for this method; `Allow` lists the ones it has.
    case methodNotAllowed(allowed: [String])
    case gone(String)
    case conflict(String)
    case payloadTooLarge(Int)
    /// An upload over the size policy, or one that does not say its size.
    case uploadTooLarge(String)
    case rateLimited(retryAfter: Int)
    /// `POST /api/v1/events` (docs/recommendations-api.md): a batch over the limit, an event of
    /// a type the server does not know, and any other event it refuses. Each refuses the whole
    /// batch; the messages name the event (`events[3] (view, event_id …): why`).
    case tooManyEvents(count: Int, limit: Int)
    case unknownEventType(String)
    case invalidEvent(String)
    /// A per-user allowance (e.g. daily generations) is used up: 429 with its own message.
    case quotaExceeded(String, retryAfter: Int)
    case unsupportedMediaType(String)
    case rangeNotSatisfiable
    /// A required precondition header is missing or unsupported (tus: `Tus-Resumable`).
    case preconditionFailed(String)
    /// Someone else is writing this resource right now (tus: a concurrent PATCH).
    case locked(String)
    /// tus checksum extension: the chunk's digest differs from `Upload-Checksum`.
    case checksumMismatch
    /// The file arrived but is not something we can publish (ffprobe's reason).
    case invalidMedia(String)
    /// The server could not read or write its own files (permissions, a missing folder).
    case storageFailure
    /// The disk is full.
    case insufficientStorage
    /// A generation provider failed or cannot be reached; worth trying again later.
    case providerUnavailable
    /// The database or the media storage cannot be reached right now (restarting, connections
    /// lost): 503 with `Retry-After`, so a client or a balancer tries again instead of reporting
    /// a fault.
    case unavailable(retryAfter: Int, what: String = "its database")
    case internalError

    public var status: HTTPResponse.Status {
        switch self {
        case .badRequest, .invalidCursor, .tooManyEvents, .unknownEventType, .invalidEvent: .badRequest
        case .unauthorized, .invalidCredentials, .invalidAPIKey: .unauthorized
        case .forbidden: .forbidden
        case .notFound: .notFound
        case .methodNotAllowed: .methodNotAllowed
        case .gone: .gone
        case .conflict: .conflict
        case .payloadTooLarge, .uploadTooLarge: .contentTooLarge
        case .rateLimited, .quotaExceeded: .tooManyRequests
        case .unsupportedMediaType: .unsupportedMediaType
        case .rangeNotSatisfiable: .rangeNotSatisfiable
        case .preconditionFailed: .preconditionFailed
        case .locked: HTTPResponse.Status(code: 423, reasonPhrase: "Locked")
        case .checksumMismatch: HTTPResponse.Status(code: 460, reasonPhrase: "Checksum Mismatch")
        case .invalidMedia: .unprocessableContent
        case .storageFailure, .internalError: .internalServerError
        case .insufficientStorage: HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage")
        case .providerUnavailable, .unavailable: .serviceUnavailable
        }
    }

    public var code: String {
        switch self {
        case .badRequest: "bad_request"
        case .invalidCursor: "invalid_cursor"
        case .unauthorized: "unauthorized"
        case .invalidCredentials: "invalid_credentials"
        case .invalidAPIKey: "invalid_api_key"
        case .forbidden: "forbidden"
        case .notFound: "not_found"
        case .methodNotAllowed: "method_not_allowed"
        case .gone: "expired"
        case .conflict: "conflict"
        case .payloadTooLarge, .uploadTooLarge: "payload_too_large"
        case .rateLimited: "rate_limited"
        case .tooManyEvents: "too_many_events"
        case .unknownEventType: "unknown_event_type"
        case .invalidEvent: "invalid_event"
        case .quotaExceeded: "quota_exceeded"
        case .unsupportedMediaType: "unsupported_media_type"
        case .rangeNotSatisfiable: "range_not_satisfiable"
        case .preconditionFailed: "precondition_failed"
        case .locked: "locked"
        case .checksumMismatch: "checksum_mismatch"
        case .invalidMedia: "invalid_media"
        case .storageFailure: "storage_error"
        case .insufficientStorage: "insufficient_storage"
        case .providerUnavailable: "provider_unavailable"
        case .unavailable: "unavailable"
        case .internalError: "internal_error"
        }
    }

    public var message: String {
        switch self {
        case .badRequest(let why), .invalidCursor(let why): why
        case .unauthorized: "sign in, or send an api-key header or a Bearer token"
        case .invalidCredentials: "wrong username or password"
        case .invalidAPIKey: "this API key is not valid"
        case .forbidden(let why): why
        case .notFound(let what): "\(what) was not found"
        case .methodNotAllowed(let allowed): "this path answers only \(allowed.joined(separator: ", "))"
        case .gone(let what): what
        case .conflict(let why): why
        case .payloadTooLarge(let limit): "the request body is larger than \(limit) bytes"
        case .rateLimited(let seconds): "too many requests; retry in \(seconds) s"
        case .tooManyEvents(let count, let limit): "a batch holds at most \(limit) events; this one has \(count)"
        case .unknownEventType(let why), .invalidEvent(let why): why
        case .quotaExceeded(let why, _): why
        case .unsupportedMediaType(let why): why
        case .rangeNotSatisfiable: "the requested range is outside the file"
        case .preconditionFailed(let why), .locked(let why), .invalidMedia(let why), .uploadTooLarge(let why): why
        case .checksumMismatch: "the chunk's checksum does not match Upload-Checksum; it was discarded, send it again"
        case .storageFailure: "the server could not read or write its storage; the problem has been logged"
        case .insufficientStorage: "the server's storage is full; the problem has been logged"
        case .providerUnavailable: "the generation provider cannot be reached right now; try again later"
        case .unavailable(let seconds, let what): "the server cannot reach \(what) right now; try again in \(seconds) s"
        case .internalError: "something went wrong on the server; it has been logged"
        }
    }
}

extension APIError: HTTPResponseError {
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"]
        if case .rateLimited(let seconds) = self { headers[.retryAfter] = String(seconds) }
        if case .quotaExceeded(_, let seconds) = self { headers[.retryAfter] = String(seconds) }
        if case .methodNotAllowed(let allowed) = self { headers[.allow] = allowed.joined(separator: ", ") }
        if case .providerUnavailable = self { headers[.retryAfter] = "30" }
        if case .unavailable(let seconds, _) = self { headers[.retryAfter] = String(seconds) }
        if self == .unauthorized { headers[.wwwAuthenticate] = "Bearer realm=\"reelhouse\"" }
        if self == .invalidAPIKey { headers[.wwwAuthenticate] = "Bearer realm=\"reelhouse\", error=\"invalid_token\"" }
        let body = try JSONEncoder().encode(APIErrorBody(code: code, message: message))
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}
