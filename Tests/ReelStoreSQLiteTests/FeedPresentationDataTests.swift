import Foundation
import ReelModels
import ReelStore
@testable import ReelStoreSQLite
import ReelStoreCore
import ReelTestSupport
import Testing

@Suite("What a feed page carries for presenting")
struct FeedPresentationDataTests {
    @Test("feed items carry the same tag and flag refs the social store reports", arguments: StoreLocation.allCases)
    func refsRideAlong(location: StoreLocation) async throws {
        try await withStore(location) { (store) async throws in
            let viewer = try await store.createUser(name: "viewer", role: .member, passwordHash: "h", now: t0)
            var ids: [Int64] = []
            for index in 0..<5 {
                let (post, _) = try await store.insertPost(
                    newPost(folderName: "p\(index)", contentHash: "c\(index)", tags: ["t\(index)", "shared"]), maxAttempts: 1, now: t0
                )
                try await store.publish(postID: post.id, media: sampleMedia, key: nil)
                ids.append(post.id)
            }
            try await store.addFlag(postID: ids[1], flag: "nsfw")
            let (items, _) = try await store.feedPage(userID: viewer.id, filter: FeedFilter(), position: .start(seed: 7), limit: 10)
            #expect(Set(items.map(\.post.id)) == Set(ids))
            let tags = try await store.tagRefs(postIDs: ids)
            let flags = try await store.flagRefs(postIDs: ids)
            for item in items {
                #expect(item.tagRefs == (tags[item.post.id] ?? []))
                #expect(item.flagRefs == (flags[item.post.id] ?? []))
                #expect(item.tagRefs?.map(\.name) == item.post.metadata.tags)
            }
        }
    }

    @Test("decoded media is remembered by its exact JSON text, so a changed text is never served stale")
    func mediaCacheIsKeyedByText() throws {
        var changed = sampleMedia
        changed.duration = 9
        let first = try MediaJSON.encode(sampleMedia)
        let second = try MediaJSON.encode(changed)
        #expect(try MediaJSON.decode(first, postID: 1) == sampleMedia)
        #expect(try MediaJSON.decode(second, postID: 1) == changed)
        #expect(try MediaJSON.decode(first, postID: 1) == sampleMedia)
        #expect(MediaJSON.count <= 4096)
        #expect(throws: StoreError.self) { try MediaJSON.decode("{not json", postID: 7) }
    }
}

@Suite("A post's look")
struct PostFilterTests {
    @Test("the filter chosen at import is stored with the post and read back", arguments: StoreLocation.allCases)
    func roundTrip(location: StoreLocation) async throws {
        try await withStore(location) { (store) async throws in
            var new = newPost(folderName: "grey", contentHash: "g1")
            new.filter = .mono
            let (post, _) = try await store.insertPost(new, maxAttempts: 1, now: t0)
            #expect(post.filter == .mono)
            #expect(try await store.post(id: post.id)?.filter == .mono)
            let (plain, _) = try await store.insertPost(newPost(folderName: "plain", contentHash: "p1"), maxAttempts: 1, now: t0)
            #expect(plain.filter == VideoFilter.none)
        }
    }
}
