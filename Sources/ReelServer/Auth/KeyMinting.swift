import Foundation
import ReelStore

extension AccountStore {
    /// Mints an API key for `userID`: the one way keys are made (the CLI's `key create` and
    /// `POST /api/v1/me/keys` both call it). Only the key's hash and display prefix are stored;
    /// the returned secret is shown once and never again.
    public func mintAPIKey(userID: Int64, name: String, now: Date) async throws -> (record: APIKeyRecord, secret: String) {
        let secret = Credentials.newAPIKey()
        let record = try await createAPIKey(
            userID: userID, name: name, keyHash: Credentials.hash(secret), prefix: Credentials.displayPrefix(secret), now: now
        )
        return (record, secret)
    }
}
