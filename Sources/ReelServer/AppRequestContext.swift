import Foundation
import Hummingbird
import NIOCore
import ReelModels

/// Who is asking, once the auth middleware has looked at the request.
public struct Identity: Sendable, Equatable {
    public enum Credential: Sendable, Equatable {
        case apiKey(id: Int64)
        case session
    }

    public var user: User
    public var credential: Credential
}

public struct AppRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    public var identity: Identity?
    /// Peer address for per-IP rate limits (nil in router tests).
    public var remoteAddress: String?

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.identity = nil
        self.remoteAddress = source.channel.remoteAddress?.ipAddress
    }

    /// Largest request body read into memory (JSON); set per request from `maxBodyBytes`
    /// by `BodyLimitMiddleware`. Uploads stream their bodies and are not bound by it.
    public var maxBodyBytes = NodeSettings().maxBodyBytes
    public var maxUploadSize: Int { maxBodyBytes }

    /// snake_case JSON both ways, ISO 8601 dates. Requests are converted from snake_case;
    /// response types spell their snake_case keys out (`CodingKeys`), so encoding converts
    /// nothing per request.
    public var requestDecoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    public var responseEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }

    /// The signed-in user, or a 401.
    public func requireUser() throws(APIError) -> User {
        guard let identity else { throw APIError.unauthorized }
        return identity.user
    }

    public func requireOwner() throws(APIError) -> User {
        let user = try requireUser()
        guard user.role == .owner else { throw APIError.forbidden("this needs the owner role") }
        return user
    }
}
