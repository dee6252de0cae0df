import Foundation

/// What an account may do. The owner manages the library and other accounts; a member watches,
/// favorites and rates. Two roles, because a self-hosted server has one admin and some friends.
public enum UserRole: String, Codable, Sendable, CaseIterable {
    case owner
    case member
}

/// An account. The password hash is deliberately not part of this value, so a `User` can be
/// logged, cached or sent to a client without ever carrying a credential.
public struct User: Codable, Sendable, Equatable, Identifiable {
    public var id: Int64
    /// Unique ignoring case, so "Ana" and "ana" can never be two different people.
    public var name: String
    public var role: UserRole
    public var createdAt: Date

    public init(id: Int64, name: String, role: UserRole, createdAt: Date) {
        self.id = id
        self.name = name
        self.role = role
        self.createdAt = createdAt
    }
}
