import Foundation
import ReelModels
import ReelStore
import ReelStoreSQLite
import ReelTestSupport
import Testing

@Suite("Post trims (story parts of one source)")
struct PostTrimStoreTests {
    @Test("a post's trim is stored and read back; most posts have none", arguments: StoreLocation.allCases)
    func trimRoundTrip(location: StoreLocation) async throws {
        try await withStore(location) { (store) async throws in
            var part = newPost(folderName: "long-part-2", contentHash: "part-2", sources: ["sources/long.mp4"])
            part.trim = SourceTrim(start: 60, duration: 37.5)
            let (stored, _) = try await store.insertPost(part, maxAttempts: 3, now: t0)
            #expect(stored.trim == SourceTrim(start: 60, duration: 37.5))
            #expect(try await store.post(id: stored.id)?.trim == SourceTrim(start: 60, duration: 37.5))
            #expect(try await store.post(contentHash: "part-2")?.trim == SourceTrim(start: 60, duration: 37.5))

            let (whole, _) = try await store.insertPost(newPost(folderName: "whole", contentHash: "whole"), maxAttempts: 3, now: t0)
            #expect(whole.trim == nil)
            #expect(try await store.post(id: whole.id)?.trim == nil)
        }
    }

    @Test("parts of one source share its file", arguments: StoreLocation.allCases)
    func partsShareTheirSource(location: StoreLocation) async throws {
        try await withStore(location) { (store) async throws in
            var ids: [Int64] = []
            for (index, trim) in (SourceTrim.parts(ofDuration: 130) ?? []).enumerated() {
                var part = newPost(folderName: "long", contentHash: "long-\(index)", sources: ["sources/long.mp4"])
                part.trim = trim
                ids.append(try await store.insertPost(part, maxAttempts: 3, now: t0).0.id)
            }
            #expect(ids.count == 3)
            for id in ids { #expect(try await store.sourcePaths(postID: id) == ["sources/long.mp4"]) }
            // Removing one part keeps the file the others still need.
            #expect(try await store.removePost(id: ids[0]) == [])
            #expect(try await store.removePost(id: ids[1]) == [])
            #expect(try await store.removePost(id: ids[2]) == ["sources/long.mp4"])
        }
    }
}
