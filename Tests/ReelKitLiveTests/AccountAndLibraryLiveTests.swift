import Foundation
import ReelKit
import ReelModels
import ReelServer
import ReelStoreSQLite
import ReelTestSupport
import Testing

/// ReelKit's account, library and detail calls against the real server over HTTP.
@Suite(.serialized) struct AccountAndLibraryLiveTests {
    @Test func keysAreShownOnceWorkAndStopWorkingWhenRevoked() async throws {
        try await withLiveServer(videos: 1, synthetic: 0) { server in
            let owner = ReelClient(baseURL: server.baseURL, credentials: .apiKey(server.ownerKey))
            let created = try await owner.createAPIKey(name: "phone")
            #expect(created.secret.hasPrefix(Credentials.apiKeyPrefix) && created.key.name == "phone")
            #expect(created.secret.hasPrefix(created.key.prefix))
            let listed = try await owner.apiKeys()
            #expect(listed.contains(created.key) && listed.allSatisfy { !$0.prefix.isEmpty })

            let phone = ReelClient(baseURL: server.baseURL, credentials: .apiKey(created.secret))
            #expect(try await phone.me().name == "owner")
            try await owner.revokeAPIKey(id: created.key.id)
            #expect(try await owner.apiKeys().contains { $0.id == created.key.id } == false)
            await #expect(throws: ReelAPIError.self) { try await phone.me() }
            await #expect(throws: ReelAPIError.notFound(message: "API key 999999 was not found")) { try await owner.revokeAPIKey(id: 999_999) }
        }
    }

    @Test func aMemberSeesOnlyGrantedLibrariesAndCanChangeTheirPassword() async throws {
        try await withLiveServer(videos: 1, synthetic: 0) { server in
            let hash = try await BcryptPasswordHasher(cost: 4).hash(LiveServer.password)
            let memberUser = try await server.store.createUser(name: "mia", role: .member, passwordHash: hash, now: Date())
            let owner = ReelClient(baseURL: server.baseURL, credentials: .apiKey(server.ownerKey))
            let family = try await owner.createLibrary(name: "Family")
            #expect(family.name == "Family" && family.postCount == 0)

            let member = ReelClient(baseURL: server.baseURL)
            try await member.login(username: "mia", password: LiveServer.password)
            #expect(try await member.libraries().map(\.name) == ["Library"])
            await #expect(throws: ReelAPIError.self) { try await member.createLibrary(name: "Mine") }

            let granted = try await owner.updateLibrary(id: family.id, members: [memberUser.id])
            #expect(granted.members == [memberUser.id])
            #expect(Set(try await member.libraries().map(\.name)) == ["Library", "Family"])
            #expect(try await member.libraries().allSatisfy { $0.members == nil }, "members are for owners only")
            _ = try await owner.updateLibrary(id: family.id, name: "Home", members: [])
            #expect(try await member.libraries().map(\.name) == ["Library"])

            await #expect(throws: ReelAPIError.forbidden(message: "the current password is not right")) {
                try await member.changePassword(current: "not it", new: "a brand new password")
            }
            try await member.changePassword(current: LiveServer.password, new: "a brand new password")
            let again = ReelClient(baseURL: server.baseURL)
            try await again.login(username: "mia", password: "a brand new password")
            #expect(try await again.me().name == "mia")
        }
    }

    @Test func detailEditAndDelete() async throws {
        try await withLiveServer(videos: 2, synthetic: 0) { server in
            let owner = ReelClient(baseURL: server.baseURL, credentials: .apiKey(server.ownerKey))
            let id = server.videoIDs[0]
            let detail = try await owner.videoDetail(id: id)
            #expect(detail.video.id == id && detail.libraryId == 1 && !detail.title.isEmpty)

            let edited = try await owner.editVideo(id: id, description: "Sunset over the bay\nshot on a phone", tags: ["sea", "evening"])
            #expect(edited.title == "Sunset over the bay")
            #expect(Set(edited.video.tags.map(\.name)) == ["sea", "evening"])
            #expect(try await owner.editVideo(id: id, tags: []).video.description == "Sunset over the bay\nshot on a phone")

            try await owner.deleteVideo(id: id)
            await #expect(throws: ReelAPIError.self) { try await owner.videoDetail(id: id) }
            #expect(try await owner.videoDetail(id: server.videoIDs[1]).video.id == server.videoIDs[1])
        }
    }
}
