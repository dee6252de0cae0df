import Foundation
import ReelFeatures
import Security

/// The sign-in kept between launches: one generic-password item holding `SavedSignIn` as
/// JSON, readable after the first unlock and never leaving this device (no iCloud sync, not
/// in backups restored elsewhere).
struct KeychainCredentialStore: CredentialStore {
    var service = "org.reelhouse.app"
    var account = "sign-in"

    struct Failure: Error, CustomStringConvertible {
        var status: OSStatus
        var description: String { (SecCopyErrorMessageString(status, nil) as String?) ?? "Keychain error \(status)" }
    }

    private var query: [String: Any] {
        [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service, kSecAttrAccount as String: account]
    }

    func load() throws -> SavedSignIn? {
        var lookup = query
        lookup[kSecReturnData as String] = true
        lookup[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = SecItemCopyMatching(lookup as CFDictionary, &result)
        if status == errSecItemNotFound { return nil }
        guard status == errSecSuccess, let data = result as? Data else { throw Failure(status: status) }
        return try JSONDecoder().decode(SavedSignIn.self, from: data)
    }

    func save(_ signIn: SavedSignIn) throws {
        let data = try JSONEncoder().encode(signIn)
        let attributes: [String: Any] = [
            kSecValueData as String: data,
            kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
        ]
        let status = SecItemUpdate(query as CFDictionary, attributes as CFDictionary)
        if status == errSecItemNotFound {
            let added = SecItemAdd(query.merging(attributes) { _, new in new } as CFDictionary, nil)
            guard added == errSecSuccess else { throw Failure(status: added) }
        } else if status != errSecSuccess {
            throw Failure(status: status)
        }
    }

    func delete() throws {
        let status = SecItemDelete(query as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else { throw Failure(status: status) }
    }
}
