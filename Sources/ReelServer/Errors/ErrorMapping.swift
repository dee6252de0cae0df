import Foundation
import Hummingbird
import Logging
import ReelGeneration
import ReelHLS
import ReelStorage
import ReelStore

/// The one table from every error a handler can throw — ours, the store's, the pipeline's,
/// the generation and playlist modules', a storage backend's (S3), Foundation's file errors,
/// Hummingbird's — to the `APIError` a client sees. Handlers throw what they have and never
/// translate to HTTP themselves; `ErrorMiddleware` calls this for everything.
///
/// Messages from other modules are meant for people but were not written for strangers: any
/// absolute file-system path in them is replaced (`PathRedaction`), and faults the client
/// cannot act on (a tool missing, a file that cannot be written, a corrupt row) become a
/// fixed message while the details go to the log.
enum ErrorMapping {
    static func apiError(for error: any Error, path: String, maxBodyBytes: Int, logger: Logger) -> APIError {
        func fault(_ kind: String, _ result: APIError) -> APIError {
            logger.error("\(kind)", metadata: ["error": "\(String(reflecting: error))", "path": "\(path)"])
            return result
        }
        switch error {
        case let error as APIError:
            if case .internalError = error { logger.error("internal error", metadata: ["path": "\(path)"]) }
            return error
        case let error as StoreError:
            switch error {
            case .notFound(let what): return .notFound(PathRedaction.redact(what))
            case .conflict(let why): return .conflict(PathRedaction.redact(why))
            case .invalid(let why): return .badRequest(PathRedaction.redact(why))
            case .corrupt, .failed: return fault("store failure", .internalError)
            case .unavailable(let why):
                logger.warning("database unavailable", metadata: ["reason": "\(why)", "path": "\(path)"])
                return .unavailable(retryAfter: 5)
            }
        case let error as PipelineError:
            switch error {
            case .rejected(let reason): return .invalidMedia(PathRedaction.redact(reason))
            case .uploadConflict(let reason): return .conflict(PathRedaction.redact(reason))
            case .storage: return fault("storage failure", .storageFailure)
            case .toolMissing, .toolFailed, .inconsistent: return fault("pipeline failure", .internalError)
            }
        case let error as GenerationError:
            switch error {
            case .invalidRequest(let why): return .badRequest(PathRedaction.redact(why))
            case .rejected(let why): return .invalidMedia(PathRedaction.redact(why))
            case .notFound(let what): return .notFound(PathRedaction.redact(what))
            case .transient, .notConfigured, .failed: return fault("generation provider failure", .providerUnavailable)
            }
        case is HLSError:
            return fault("playlist failure", .internalError)
        case let error as DecodingError:
            return .badRequest("the request body is not valid JSON of the expected shape: \(describe(error))")
        case let error as HTTPError:
            switch error.status {
            case .contentTooLarge: return .payloadTooLarge(maxBodyBytes)
            case .notFound: return .notFound(shortPath(path))
            case .methodNotAllowed: return .notFound(shortPath(path))
            case .unauthorized: return .unauthorized
            default:
                if error.status.code < 500 { return .badRequest(PathRedaction.redact(error.body ?? error.status.reasonPhrase)) }
                return fault("http error", .internalError)
            }
        case let error as any StorageFault:
            guard error.isUnreachable else { return fault("storage failure", .storageFailure) }
            logger.warning("storage unreachable", metadata: ["reason": "\(error)", "path": "\(path)"])
            return .unavailable(retryAfter: 5, what: "its media storage")
        case let error as CocoaError where error.isFileError:
            return fault("file error", error.code == .fileWriteOutOfSpace ? .insufficientStorage : .storageFailure)
        case let error as POSIXError:
            return fault("file error", error.code == .ENOSPC ? .insufficientStorage : .storageFailure)
        default:
            let domain = (error as NSError).domain
            if domain == NSPOSIXErrorDomain || domain == NSCocoaErrorDomain {
                return fault("file error", (error as NSError).code == Int(ENOSPC) ? .insufficientStorage : .storageFailure)
            }
            return fault("unhandled error", .internalError)
        }
    }

    /// The path as echoed in a 404: bounded, so a 5,000-character probe is not sent back whole.
    static func shortPath(_ path: String) -> String {
        path.count <= 120 ? path : String(path.prefix(120)) + "…"
    }

    /// Names the field that was wrong without echoing the body back or naming Swift types.
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

/// Replaces absolute file-system paths in text meant for a client (`/srv/data/tmp/x.mp4` →
/// `a server file`). API routes the server itself publishes (`/api/…`, `/media/…`) are kept:
/// they are addresses the client may use, not internals.
enum PathRedaction {
    static let publicPrefixes = ["/api/", "/media/", "/img/", "/videos/", "/health", "/openapi.json", "/metrics"]

    static func redact(_ text: String) -> String {
        var result = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            let startsWord = index == text.startIndex || " (\"'=:,[".contains(text[text.index(before: index)])
            guard character == "/", startsWord else {
                result.append(character)
                index = text.index(after: index)
                continue
            }
            var end = index
            while end < text.endIndex, !" \"'),;:]\n".contains(text[end]) { end = text.index(after: end) }
            let candidate = text[index..<end]
            if candidate.count > 1, !publicPrefixes.contains(where: { candidate.hasPrefix($0) }) {
                result += "a server file"
            } else {
                result += candidate
            }
            index = end
        }
        return result
    }
}

extension CocoaError {
    /// Reading or writing a file failed (as opposed to, say, a formatting error).
    var isFileError: Bool { (0...1023).contains(code.rawValue) }
}
