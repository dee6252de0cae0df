import Foundation
import ReelModels

/// The signed-in person's own settings: password and API keys (`/api/v1/me/…`).
extension ReelClient {
    /// Other sessions of this user are signed out; this client's credentials keep working
    /// (an API key is not a session; a session client signs in again with the new password).
    public func changePassword(current: String, new: String) async throws(ReelAPIError) {
        _ = try await send("PUT", "/api/v1/me/password", body: try encode(APIPasswordChangeRequest(currentPassword: current, newPassword: new)))
    }

    /// This user's keys that are not revoked (never the secrets).
    public func apiKeys() async throws(ReelAPIError) -> [APIKey] {
        try await json(APIKeyList.self, "GET", "/api/v1/me/keys").keys
    }

    /// A new key; its `secret` is in this answer and nowhere else, so store it now.
    public func createAPIKey(name: String) async throws(ReelAPIError) -> APICreatedKey {
        try await json(APICreatedKey.self, "POST", "/api/v1/me/keys", body: try encode(APIKeyCreateRequest(name: name)))
    }

    public func revokeAPIKey(id: Int64) async throws(ReelAPIError) {
        _ = try await send("DELETE", "/api/v1/me/keys/\(id)")
    }
}

/// Libraries (`/api/v1/libraries`) and one post's detail, edit and delete.
extension ReelClient {
    /// The libraries this user may see; pass one's id as `FeedQuery.library` (and the catalog
    /// calls' `library`) to scope a screen to it.
    public func libraries() async throws(ReelAPIError) -> [APILibrary] {
        try await json(APILibraryList.self, "GET", "/api/v1/libraries").libraries
    }

    /// Owners only.
    public func createLibrary(name: String) async throws(ReelAPIError) -> APILibrary {
        try await json(APILibrary.self, "POST", "/api/v1/libraries", body: try encode(APILibraryCreateRequest(name: name)))
    }

    /// Owners only: a new name and/or the complete list of members granted the library.
    public func updateLibrary(id: Int64, name: String? = nil, members: [Int64]? = nil) async throws(ReelAPIError) -> APILibrary {
        try await json(APILibrary.self, "PUT", "/api/v1/libraries/\(id)", body: try encode(APILibraryUpdateRequest(name: name, members: members)))
    }

    /// What a detail screen shows: the item plus its title, library and collections.
    public func videoDetail(id: Int64) async throws(ReelAPIError) -> APIVideoDetail {
        try await json(APIVideoDetail.self, "GET", "/api/v1/videos/\(id)")
    }

    /// Owners only: nil leaves a field as it is; `tags` replaces the whole set.
    public func editVideo(id: Int64, description: String? = nil, tags: [String]? = nil) async throws(ReelAPIError) -> APIVideoDetail {
        try await json(APIVideoDetail.self, "PUT", "/api/v1/videos/\(id)", body: try encode(APIVideoEditRequest(description: description, tags: tags)))
    }

    /// Owners only: the post, its media and everything that points at it.
    public func deleteVideo(id: Int64) async throws(ReelAPIError) {
        _ = try await send("DELETE", "/api/v1/videos/\(id)")
    }
}
