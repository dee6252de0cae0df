import Foundation
import ReelModels
import ReelStore
import ReelStoreSQLite
import ReelTestSupport
import Testing

/// One suite for both stores (SQLite and PostgreSQL): they must give the same answers.
@Suite("Collection store on SQLite and PostgreSQL")
struct CollectionStoreTests {
    /// A store of `backend` with an owner and five ready posts.
    func withLibrary(_ backend: StoreBackend, _ body: (any PortableStore, User, [Int64]) async throws -> Void) async throws {
        try await withStore(backend) { (store) async throws in
            let user = try await store.createUser(name: "owner", role: .owner, passwordHash: "x", now: t0)
            var ids: [Int64] = []
            for index in 0..<5 { ids.append(try await makeReadyPost(store, folder: "p\(index)").id) }
            try await body(store, user, ids)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func createAddReorderRemoveAndDelete(backend: StoreBackend) async throws {
        try await withLibrary(backend) { store, user, ids in
            let created = try await store.createCollection(name: "  Road trips ", postIDs: [ids[2], ids[0], ids[2]], createdBy: user.id, now: t0)
            #expect(created.name == "Road trips" && created.count == 2 && created.coverPost?.id == ids[2] && created.createdBy == user.id)
            #expect(try await store.shelfAll(.collection(created.id), userID: user.id, limit: 1) == [ids[2], ids[0]])

            let added = try await store.addToCollection(id: created.id, postIDs: [ids[0], ids[4]], now: t0.addingTimeInterval(5))
            #expect(added.count == 3 && added.updatedAt == t0.addingTimeInterval(5) && added.createdAt == t0)
            #expect(try await store.shelfAll(.collection(created.id), userID: user.id) == [ids[2], ids[0], ids[4]])

            let reordered = try await store.updateCollection(id: created.id, name: nil, postIDs: [ids[4], ids[1], ids[2]], now: t0)
            #expect(reordered.coverPost?.id == ids[4])
            #expect(try await store.shelfAll(.collection(created.id), userID: user.id, limit: 2) == [ids[4], ids[1], ids[2]])

            _ = try await store.removeFromCollection(id: created.id, postIDs: [ids[1], ids[3]], now: t0)
            #expect(try await store.shelfAll(.collection(created.id), userID: user.id) == [ids[4], ids[2]])
            let renamed = try await store.updateCollection(id: created.id, name: "Trips", postIDs: nil, now: t0)
            #expect(renamed.name == "Trips" && renamed.count == 2)
            #expect(try await store.collection(named: "trips")?.id == created.id)

            try await store.deleteCollection(id: created.id)
            #expect(try await store.collections().isEmpty)
            #expect(try await store.post(id: ids[4]) != nil, "deleting a collection keeps its posts")
            await #expect(throws: StoreError.notFound("collection \(created.id)")) { try await store.deleteCollection(id: created.id) }
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func deletingAPostRemovesItFromEveryCollection(backend: StoreBackend) async throws {
        try await withLibrary(backend) { store, user, ids in
            let a = try await store.createCollection(name: "A", postIDs: [ids[0], ids[1]], createdBy: nil, now: t0)
            let b = try await store.createCollection(name: "B", postIDs: [ids[1]], createdBy: nil, now: t0)
            try await store.deletePost(id: ids[1])
            #expect(try await store.collection(id: a.id)?.count == 1)
            let emptied = try await store.collection(id: b.id)
            #expect(emptied?.count == 0 && emptied?.coverPost == nil)
            #expect(try await store.shelfAll(.collection(a.id), userID: user.id) == [ids[0]])
            if let sqlite = store as? SQLiteStore { #expect(try sqlite.check() == "ok") }
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func refusalsChangeNothing(backend: StoreBackend) async throws {
        try await withLibrary(backend) { store, _, ids in
            let trips = try await store.createCollection(name: "Trips", postIDs: [ids[0]], createdBy: nil, now: t0)
            _ = try await store.createCollection(name: "Cats", postIDs: [], createdBy: nil, now: t0)
            await #expect(throws: StoreError.self) { _ = try await store.createCollection(name: "TRIPS", postIDs: [], createdBy: nil, now: t0) }
            for bad in ["", "   ", String(repeating: "x", count: 101), "tab\u{7}bell"] {
                await #expect(throws: StoreError.self, "\(bad)") { _ = try await store.createCollection(name: bad, postIDs: [], createdBy: nil, now: t0) }
            }
            // An unknown post anywhere in the list: neither the rename nor the new order is kept.
            await #expect(throws: StoreError.notFound("post 999")) {
                _ = try await store.updateCollection(id: trips.id, name: "Renamed", postIDs: [ids[1], 999], now: t0)
            }
            await #expect(throws: StoreError.self) { _ = try await store.updateCollection(id: trips.id, name: "cats", postIDs: nil, now: t0) }
            await #expect(throws: StoreError.notFound("post 999")) { _ = try await store.createCollection(name: "New", postIDs: [999], createdBy: nil, now: t0) }
            let after = try #require(try await store.collection(id: trips.id))
            #expect(after.name == "Trips" && after.count == 1 && after.coverPost?.id == ids[0])
            #expect(try await store.collections().map(\.name) == ["Cats", "Trips"])
            await #expect(throws: StoreError.notFound("collection 77")) { _ = try await store.addToCollection(id: 77, postIDs: [ids[0]], now: t0) }
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func onlyReadyPostsCountAndShow(backend: StoreBackend) async throws {
        try await withLibrary(backend) { store, user, ids in
            let (queued, _) = try await store.insertPost(newPost(folderName: "queued", contentHash: "q"), maxAttempts: 3, now: t0)
            let collection = try await store.createCollection(name: "Mixed", postIDs: [queued.id, ids[3]], createdBy: nil, now: t0)
            #expect(collection.count == 1 && collection.coverPost?.id == ids[3])
            #expect(try await store.shelfAll(.collection(collection.id), userID: user.id) == [ids[3]])
        }
    }
}
