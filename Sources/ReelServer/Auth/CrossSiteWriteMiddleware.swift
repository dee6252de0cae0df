import Foundation
import HTTPTypes
import Hummingbird

/// Refuses cross-site writes made with the session cookie, so the server does not rely on the
/// browser's `SameSite=Lax` alone (older browsers, same-site subdomains, a top-level POST within
/// Lax's two-minute grace). A write (any method but GET, HEAD, OPTIONS) signed in by the session
/// cookie must:
/// - come from this origin: `Sec-Fetch-Site: same-origin`, else an `Origin` whose host and port
///   are the request's `Host` (403 otherwise, and when a browser sent neither);
/// - carry a body only of a type no HTML form or beacon can send: JSON, or tus's
///   `application/offset+octet-stream` (415 otherwise, and for a body of no stated type).
/// Sign-in is checked the same way when the browser says where it came from (login CSRF).
/// Keys (`api-key`, Bearer) are not sent by browsers on their own and are not affected.
struct CrossSiteWriteMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    static let safeMethods: Set<HTTPRequest.Method> = [.get, .head, .options]
    static let writableTypes = ["application/json", "application/offset+octet-stream"]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard !Self.safeMethods.contains(request.method) else { return try await next(request, context) }
        // After `AuthMiddleware`: only a cookie that really signed someone in is guarded (a stale
        // one leaves the request anonymous, and the route answers 401).
        let usesCookie = context.identity?.credential == .session
        let isSignIn = request.uri.path == "/api/v1/session"
        guard usesCookie || isSignIn else { return try await next(request, context) }
        switch Self.origin(of: request) {
        case .same: break
        case .cross:
            throw APIError.forbidden("a cross-site request cannot write with this site's session; send it from the site itself")
        case .unstated:
            if usesCookie {
                throw APIError.forbidden("a write signed in by cookie must say its Origin (browsers do); scripts use an api-key header")
            }
        }
        if usesCookie {
            if let type = request.headers[.contentType] {
                guard Self.isWritable(type) else {
                    throw APIError.unsupportedMediaType("send JSON (Content-Type: application/json), not \(type.prefix(80))")
                }
            } else if Self.hasBody(request) {
                throw APIError.unsupportedMediaType("say the body's type: Content-Type: application/json")
            }
        }
        return try await next(request, context)
    }

    enum Origin: Equatable { case same, cross, unstated }

    /// Where the browser says the request came from: its Fetch Metadata first, then `Origin`.
    static func origin(of request: Request) -> Origin {
        if let site = request.headers[.secFetchSite]?.lowercased() {
            return site == "same-origin" ? .same : .cross
        }
        guard let origin = request.headers[.origin] else { return .unstated }
        // HTTP/1's `Host` header arrives as the request's authority.
        guard let host = request.head.authority else { return .cross }
        return authority(ofOrigin: origin) == normalized(host) ? .same : .cross
    }

    /// `https://Reels.Example:443` → `reels.example`; `null` and anything that is not an
    /// origin → nil (never equal to a host).
    static func authority(ofOrigin origin: String) -> String? {
        let lowered = origin.lowercased()
        for (scheme, port) in [("https://", ":443"), ("http://", ":80")] where lowered.hasPrefix(scheme) {
            let rest = lowered.dropFirst(scheme.count)
            guard !rest.isEmpty, !rest.contains("/") else { return nil }
            return rest.hasSuffix(port) ? String(rest.dropLast(port.count)) : String(rest)
        }
        return nil
    }

    /// A `Host` header as `authority(ofOrigin:)` spells it: `Host` does not say its scheme, so
    /// either default port is dropped.
    static func normalized(_ host: String) -> String {
        let lowered = host.lowercased()
        for port in [":443", ":80"] where lowered.hasSuffix(port) { return String(lowered.dropLast(port.count)) }
        return lowered
    }

    /// A body is coming: a length above zero, or chunks.
    static func hasBody(_ request: Request) -> Bool {
        if let length = request.headers[.contentLength].flatMap(Int.init) { return length > 0 }
        return request.headers[.transferEncoding] != nil
    }

    static func isWritable(_ contentType: String) -> Bool {
        let type = contentType.split(separator: ";", maxSplits: 1)[0].trimmingCharacters(in: .whitespaces).lowercased()
        return writableTypes.contains(type) || (type.hasPrefix("application/") && type.hasSuffix("+json"))
    }
}

extension HTTPField.Name {
    static let secFetchSite = Self("Sec-Fetch-Site")!
}
