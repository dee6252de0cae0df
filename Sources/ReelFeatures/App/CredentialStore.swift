import Foundation
import ReelKit

/// What the app keeps to stay signed in: which server and how it proves who it is.
public struct SavedSignIn: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable { case session, apiKey }
    public var server: URL
    public var kind: Kind
    public var secret: String

    public init(server: URL, kind: Kind, secret: String) {
        self.server = server
        self.kind = kind
        self.secret = secret
    }

    public var credentials: ReelCredentials {
        switch kind {
        case .session: .session(secret)
        case .apiKey: .apiKey(secret)
        }
    }
}

/// Where the sign-in is kept between launches: the keychain in the app
/// (`Apps/iOS/…/KeychainCredentialStore.swift`), memory in tests and previews.
public protocol CredentialStore: Sendable {
    func load() throws -> SavedSignIn?
    func save(_ signIn: SavedSignIn) throws
    func delete() throws
}

public final class InMemoryCredentialStore: CredentialStore, @unchecked Sendable {
    private let lock = NSLock()
    private var saved: SavedSignIn?

    public init(_ saved: SavedSignIn? = nil) { self.saved = saved }
    public func load() -> SavedSignIn? { lock.withLock { saved } }
    public func save(_ signIn: SavedSignIn) { lock.withLock { saved = signIn } }
    public func delete() { lock.withLock { saved = nil } }
}
