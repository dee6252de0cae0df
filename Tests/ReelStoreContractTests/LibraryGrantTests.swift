import Foundation
import ReelModels
import ReelStore
@testable import ReelStoreSQLite
import ReelStoreCore
import ReelTestSupport
import Testing

@Suite("Libraries and grants")
struct LibraryGrantTests {

    @Test("names are unique ignoring case, trimmed and never blank", arguments: StoreBackend.allCases)
    func names(backend: StoreBackend) async throws {
        try await withStore(backend) { (store) async throws in
            let family = try await store.createLibrary(name: "  Family ", now: t0)
            #expect(family.name == "Family" && family.id == 2 && family.members.isEmpty && family.postCount == 0)
            await #expect(throws: StoreError.conflict("a library named family exists")) { _ = try await store.createLibrary(name: "family", now: t0) }
            await #expect(throws: StoreError.self) { _ = try await store.createLibrary(name: " \n ", now: t0) }
            await #expect(throws: StoreError.self) { _ = try await store.renameLibrary(id: family.id, name: "LIBRARY") }
            #expect(try await store.renameLibrary(id: family.id, name: "FAMILY").name == "FAMILY")
            #expect(try await store.library(name: "family")?.id == family.id)
            await #expect(throws: StoreError.notFound("library 9")) { _ = try await store.renameLibrary(id: 9, name: "x") }
            await #expect(throws: StoreError.self) { _ = try await store.setMembers(libraryID: family.id, userIDs: [42]) }
        }
    }

    @Test("scope: owners see everything, members their grants, a library not granted is not found", arguments: StoreBackend.allCases)
    func scopes(backend: StoreBackend) async throws {
        try await withStore(backend) { (store) async throws in
            let owner = try await store.createUser(name: "owner", role: .owner, passwordHash: "h", now: t0)
            let member = try await store.createUser(name: "member", role: .member, passwordHash: "h", now: t0)
            #expect(try await store.scope(userID: member.id, requested: nil) == .all, "one library, granted")
            let family = try await store.createLibrary(name: "Family", now: t0)
            #expect(try await store.scope(userID: owner.id, requested: nil) == .all)
            #expect(try await store.scope(userID: owner.id, requested: family.id) == .only([family.id]))
            #expect(try await store.scope(userID: member.id, requested: nil) == .only([1]))
            await #expect(throws: StoreError.notFound("library \(family.id)")) { _ = try await store.scope(userID: member.id, requested: family.id) }
            await #expect(throws: StoreError.notFound("library 77")) { _ = try await store.scope(userID: owner.id, requested: 77) }
            try await store.grant(libraryID: family.id, userID: member.id)
            try await store.grant(libraryID: family.id, userID: member.id)
            #expect(try await store.scope(userID: member.id, requested: nil) == .all)
            try await store.revoke(libraryID: 1, userID: member.id)
            #expect(try await store.scope(userID: member.id, requested: nil) == .only([family.id]))
            #expect(try await store.scope(userID: 999, requested: nil) == .only([]), "an unknown user sees nothing")
            _ = try await store.setMembers(libraryID: family.id, userIDs: [])
            #expect(try await store.scope(userID: member.id, requested: nil) == .only([]))
            let page = try await store.feedPage(userID: member.id, filter: .all, position: .start(seed: 1), limit: 10)
            #expect(page.items.isEmpty && page.next == nil)
        }
    }

    @Test("a member's feed, search and favorites hold only posts of libraries granted to them", arguments: StoreBackend.allCases)
    func listingsAreScoped(backend: StoreBackend) async throws {
        try await withStore(backend) { (store) async throws in
            let member = try await store.createUser(name: "member", role: .member, passwordHash: "h", now: t0)
            let family = try await store.createLibrary(name: "Family", now: t0)
            var ids: [Int64: Int64] = [:]
            for (index, library) in [Int64(1), family.id, 1, family.id].enumerated() {
                var new = newPost(contentHash: "post\(index)", tags: ["holiday"])
                new.libraryID = library
                let (post, _) = try await store.insertPost(new, maxAttempts: 1, now: t0)
                try await store.publish(postID: post.id, media: sampleMedia, key: nil)
                try await store.setFavorite(userID: member.id, postID: post.id, favorited: true, now: t0.addingTimeInterval(Double(index)))
                ids[post.id] = library
            }
            let home = Set(ids.filter { $0.value == 1 }.keys)
            let feed = try await store.feedPage(userID: member.id, filter: .all, position: .start(seed: 3), limit: 10)
            #expect(Set(feed.items.map(\.post.id)) == home)
            let search = try await store.search(userID: member.id, query: SearchQuery.parse("holiday"), offset: 0, limit: 10)
            #expect(Set(search.items.map(\.post.id)) == home)
            let favorites = try await store.favorites(userID: member.id, after: nil, limit: 10)
            #expect(Set(favorites.posts.map(\.id)) == home)
            await #expect(throws: StoreError.self) {
                _ = try await store.feedPage(userID: member.id, filter: FeedFilter(library: family.id), position: .start(seed: 3), limit: 10)
            }
            await #expect(throws: StoreError.self) { _ = try await store.search(userID: member.id, library: family.id, query: SearchQuery.parse("holiday"), offset: 0, limit: 10) }
            await #expect(throws: StoreError.self) { _ = try await store.favorites(userID: member.id, library: family.id, after: nil, limit: 10) }

            try await store.grant(libraryID: family.id, userID: member.id)
            let onlyFamily = try await store.feedPage(userID: member.id, filter: FeedFilter(library: family.id), position: .start(seed: 3), limit: 10)
            #expect(Set(onlyFamily.items.map(\.post.id)) == Set(ids.filter { $0.value == family.id }.keys))
            let searchFamily = try await store.search(userID: member.id, library: family.id, query: SearchQuery.parse("holiday"), offset: 0, limit: 10)
            #expect(Set(searchFamily.items.map(\.post.id)) == Set(ids.filter { $0.value == family.id }.keys))
            #expect(try await store.countFeed(userID: member.id, filter: .all) == 4)
        }
    }
}
