import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// Who may call a route. Every route states it explicitly when registered; there is no
/// default, so a new route cannot be public by accident.
public enum RouteAccess: String, Sendable, Codable {
    /// No credentials (health, login, the web client's static files).
    case `public`
    /// A signed-in user (api-key header, Bearer token or session cookie).
    case user
    /// A user with the owner role.
    case owner
    /// A signed media token in the path; no header needed (players, CDNs). The edge's check
    /// (`/internal/media-auth`) takes the same capability in the URI it forwards.
    case mediaToken
    /// Seed 000's HLS routes: served without credentials by design (see the README).
    case compat
}

/// One route as documented: the source of truth for the router, the OpenAPI document and the
/// route-table test alike.
public struct RouteSpec: Sendable, Equatable, Codable {
    public var method: String
    /// OpenAPI-style template, e.g. `/api/v1/videos/{id}`.
    public var path: String
    public var access: RouteAccess
    public var summary: String
    public var tag: String

    /// Hummingbird's form of the template (`{id}` → `:id`, `{path+}` → `**`).
    var routerPath: String {
        path.split(separator: "/", omittingEmptySubsequences: false).map { part -> String in
            guard part.hasPrefix("{"), part.hasSuffix("}") else { return String(part) }
            let name = part.dropFirst().dropLast()
            return name.hasSuffix("+") ? "**" : ":" + name
        }.joined(separator: "/")
    }
}

/// Collects routes as they are registered.
public final class RouteRegistry: @unchecked Sendable {
    private let lock = NSLock()
    private var specs: [RouteSpec] = []
    /// Documentation a feature gave with its route, by `"METHOD /path"`.
    private var docs: [String: OperationDoc] = [:]

    public init() {}

    public var routes: [RouteSpec] { lock.withLock { specs } }

    func record(_ spec: RouteSpec, doc: OperationDoc? = nil) {
        lock.withLock {
            specs.append(spec)
            if let doc { docs["\(spec.method) \(spec.path)"] = doc }
        }
    }

    /// A route's OpenAPI detail: what its feature registered it with, else `OperationCatalog`'s.
    func doc(for spec: RouteSpec) -> OperationDoc? {
        lock.withLock { docs["\(spec.method) \(spec.path)"] } ?? OperationCatalog.doc(method: spec.method, path: spec.path)
    }

    /// The methods registered for templates that match `path` (for `Allow` on a 405).
    func methods(matching path: String) -> [String] {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        let matching = routes.filter { $0.matches(parts) }
        // As the router does, a literal segment wins over a parameter at the same place:
        // `/api/v1/stories/seen` is the seen route's (POST), not `/stories/{username}`'s GET.
        guard let best = matching.map(\.literalSegments).max(by: { $0.lexicographicallyPrecedes($1) }) else { return [] }
        return Array(Set(matching.filter { $0.literalSegments == best }.map(\.method))).sorted()
    }
}

extension RouteSpec {
    /// Per template segment, 1 for a literal and 0 for a parameter: the more literal a
    /// template is from the left, the more specific.
    var literalSegments: [Int] {
        path.split(separator: "/", omittingEmptySubsequences: false).map { $0.hasPrefix("{") ? 0 : 1 }
    }

    /// Whether a request path (split at "/") fits this template: `{name}` takes one non-empty
    /// segment, a trailing `{name+}` one or more.
    func matches(_ parts: [Substring]) -> Bool {
        let template = path.split(separator: "/", omittingEmptySubsequences: false)
        for (index, piece) in template.enumerated() {
            if piece.hasPrefix("{"), piece.hasSuffix("+}") { return parts.count > index && parts[index...].allSatisfy { !$0.isEmpty } }
            guard index < parts.count else { return false }
            if piece.hasPrefix("{"), piece.hasSuffix("}") {
                if parts[index].isEmpty { return false }
            } else if piece != parts[index] {
                return false
            }
        }
        return template.count == parts.count
    }
}

/// Registers a route on the Hummingbird router, records it, and enforces its access level
/// before the handler runs.
struct APIRoutes {
    let router: Router<AppRequestContext>
    let registry: RouteRegistry
    let tag: String

    /// `doc`: the route's OpenAPI detail, given where the route is (routes older than this
    /// parameter keep theirs in `OperationCatalog`).
    func on(
        _ method: HTTPRequest.Method, _ path: String, access: RouteAccess, _ summary: String, doc: OperationDoc? = nil,
        handler: @escaping @Sendable (Request, AppRequestContext) async throws -> some ResponseGenerator
    ) {
        let spec = RouteSpec(method: method.rawValue, path: path, access: access, summary: summary, tag: tag)
        registry.record(spec, doc: doc)
        router.on(RouterPath(spec.routerPath), method: method) { request, context in
            switch access {
            case .user: _ = try context.requireUser()
            case .owner: _ = try context.requireOwner()
            case .public, .mediaToken, .compat: break
            }
            return try await handler(request, context)
        }
    }
}

extension Response {
    /// A JSON response with our encoder (snake_case, ISO dates).
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok, context: AppRequestContext, headers: HTTPFields = [:]) throws -> Response {
        let data = try context.responseEncoder.encode(value)
        return json(body: ByteBuffer(bytes: data), status: status, headers: headers)
    }

    /// A JSON response whose body is already encoded (the feed writes its pages itself).
    static func json(body: ByteBuffer, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        if fields[.cacheControl] == nil { fields[.cacheControl] = "no-store" }
        return Response(status: status, headers: fields, body: .init(byteBuffer: body))
    }
}

extension Request {
    /// Decodes a JSON body of at most `maxBodyBytes`; malformed or oversized bodies are 4xx.
    func decodeJSON<T: Decodable>(_ type: T.Type, context: AppRequestContext) async throws -> T {
        var request = self
        let limit = context.maxBodyBytes
        let buffer: ByteBuffer
        do {
            buffer = try await request.collectBody(upTo: limit)
        } catch {
            throw APIError.payloadTooLarge(limit)
        }
        guard buffer.readableBytes > 0 else { throw APIError.badRequest("a JSON body is required") }
        return try context.requestDecoder.decode(T.self, from: Data(buffer.readableBytesView))
    }
}
