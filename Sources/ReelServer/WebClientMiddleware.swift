import Foundation
import HTTPTypes
import Hummingbird

/// Serves the web client's files, but only for plain shell paths: API, media and
/// compatibility paths never touch the file system here, and a path with anything but
/// `[A-Za-z0-9._/-]` or a `..` component is not looked up at all.
struct WebClientMiddleware<Files: RouterMiddleware>: RouterMiddleware where Files.Context == AppRequestContext {
    typealias Context = AppRequestContext
    let files: Files

    static var reservedPrefixes: [String] { ["/api/", "/media/", "/img/", "/videos/", "/bench/", "/health", "/metrics", "/openapi.json"] }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        guard request.method == .get || request.method == .head, Self.isShellPath(path) else {
            return try await next(request, context)
        }
        var request = request
        if WebAppRoute.isAppRoute(path) {
            // The app's own URLs (`/discover`, `/p/12`…) are places inside the one-page client:
            // the shell answers them so that a reload or a shared link lands where it points.
            var head = request.head
            head.path = "/"
            request = Request(head: head, body: request.body)
        }
        var response = try await files.handle(request, context: context, next: next)
        response.headers[.contentSecurityPolicy] = WebShellPolicy.contentSecurityPolicy
        return response
    }
}

/// The client-side routes of the web app (the History API's URLs), answered with the shell.
enum WebAppRoute {
    /// Screens with no parameter.
    static let screens: Set<String> = ["discover", "browse", "search", "favorites", "profile", "create"]
    /// Screens followed by one id segment.
    static let screensWithID: Set<String> = ["p", "shelf", "collection"]
    /// Screens followed by a person's name (`/stories/ana.example`), which may also hold `_` and `.`.
    static let screensWithName: Set<String> = ["stories"]

    static func isAppRoute(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        guard let first = parts.first else { return false }
        switch parts.count {
        case 1: return screens.contains(String(first))
        case 2:
            guard let id = parts.last, !id.isEmpty, id.count <= 80 else { return false }
            if screensWithName.contains(String(first)) {
                return id != "." && id != ".." && id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }
            }
            guard screensWithID.contains(String(first)) else { return false }
            return id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        default: return false
        }
    }
}

/// The shell runs only its own modules: no inline or third-party script, no plugins, no
/// framing. `blob:` media is the player's MediaSource; inline styles are the player's element
/// sizing (CSSOM), which CSP cannot tell from a `style` attribute.
enum WebShellPolicy {
    static let contentSecurityPolicy = [
        "default-src 'self'", "script-src 'self'", "style-src 'self' 'unsafe-inline'", "img-src 'self' data: blob:",
        "media-src 'self' blob:", "connect-src 'self'", "worker-src 'self'", "manifest-src 'self'", "object-src 'none'",
        "base-uri 'self'", "form-action 'self'", "frame-ancestors 'none'",
    ].joined(separator: "; ")
}

extension WebClientMiddleware {
    static func isShellPath(_ path: String) -> Bool {
        guard path.hasPrefix("/"), path.count <= 200, !reservedPrefixes.contains(where: path.hasPrefix) else { return false }
        guard path.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "._/-".contains($0)) }) else { return false }
        return !path.split(separator: "/").contains { $0 == ".." || $0 == "." }
    }
}
