import Foundation
import HummingbirdBcrypt
import NIOPosix

/// Password hashing behind a protocol: bcrypt in production, the same bcrypt at a low cost in
/// tests (never a fake: a test must fail if verification is wrong).
public protocol PasswordHasher: Sendable {
    func hash(_ password: String) async throws -> String
    func verify(_ password: String, hash: String) async -> Bool
}

/// bcrypt on NIO's thread pool, so a login never blocks an event loop.
public struct BcryptPasswordHasher: PasswordHasher {
    public let cost: UInt8

    public init(cost: UInt8 = 12) {
        self.cost = cost
    }

    public func hash(_ password: String) async throws -> String {
        let cost = self.cost
        return try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(password, cost: cost) }
    }

    public func verify(_ password: String, hash: String) async -> Bool {
        (try? await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(password, hash: hash) }) ?? false
    }
}
