import Foundation
import NIOCore
import ReelS3
import ReelStorage
import ReelTestSupport
import Testing
import ReelTestFiles

/// S3UploadStorage on a real SeaweedFS: tus upload records and parts in the bucket, resumed by a
/// second storage instance (another node), rewinds, the conditional-write race, scans and the
/// assembled file. Parts are 64 KiB here so a few hundred KB make several of them.
@Suite("S3UploadStorage against SeaweedFS")
struct S3UploadStorageTests {
    static let partBytes = 64 << 10

    /// A storage on `bucket` as one node sees it; two calls are two nodes.
    static func node(_ bucket: SeaweedBucket) -> S3UploadStorage {
        var storage = S3UploadStorage(
            client: bucket.client,
            location: S3Location(bucket: bucket.name, prefix: "lib/", endpoint: bucket.client.endpoint, region: SeaweedS3.region),
            scratch: TemporaryFolder.fresh("reel-s3-uploads")
        )
        storage.partBytes = partBytes
        return storage
    }

    static func record(length: Int64, expires: Date = Date().addingTimeInterval(3600)) -> UploadRecord {
        UploadRecord(
            id: UploadRecord.makeID(), length: length, metadata: ["filename": "clip.mp4"], userID: 7,
            createdAt: Date(timeIntervalSince1970: 1_700_000_000), expiresAt: Date(timeIntervalSince1970: expires.timeIntervalSince1970.rounded())
        )
    }

    /// Writes `data` through `writer` in request-sized pieces (as ChunkAppender hands them).
    static func send(_ data: Data, to writer: any UploadWriter, piece: Int = 20_000) async throws {
        var start = data.startIndex
        while start < data.endIndex {
            let end = min(start + piece, data.endIndex)
            try await writer.write(ByteBuffer(bytes: data[start..<end]))
            start = end
        }
    }

    static func completed(_ storage: S3UploadStorage, _ id: String) async throws -> Data {
        try await storage.withCompletedFile(id: id) { try Data(contentsOf: $0) }
    }

    @Test("An upload started on one node resumes on another and assembles to the exact bytes")
    func resumeOnAnotherNode() async throws {
        let bucket = try await SeaweedBucket.fresh()
        let (nodeA, nodeB) = (Self.node(bucket), Self.node(bucket))
        let data = patterned(300_000, seed: 3)
        let upload = Self.record(length: Int64(data.count))
        try await nodeA.create(upload)
        #expect(try await nodeB.record(id: upload.id) == upload)
        #expect(try await nodeB.offset(id: upload.id) == 0)

        let first = try await nodeA.openWriter(id: upload.id, at: 0)
        try await Self.send(data[0..<150_000], to: first)
        try await first.flush()
        await first.close()
        #expect(try await nodeB.offset(id: upload.id) == 150_000)

        let second = try await nodeB.openWriter(id: upload.id, at: try await nodeB.offset(id: upload.id))
        #expect(second.offset == 150_000)
        try await Self.send(data[150_000...], to: second)
        try await second.flush()
        await second.close()
        #expect(try await nodeA.offset(id: upload.id) == 300_000)

        // Parts are objects keyed by their start offset, none larger than a part plus a piece.
        let parts = try await bucket.client.listAll(bucket: bucket.name, prefix: "lib/uploads/\(upload.id)/parts/")
        #expect(parts.count >= 4)
        #expect(parts.first?.key.hasSuffix("/00000000000000000000") == true)
        #expect(parts.contains { $0.key.hasSuffix("/00000000000000150000") }, "the second node's first part starts where the first node stopped")
        #expect(parts.reduce(0) { $0 + $1.size } == data.count)

        #expect(try await Self.completed(nodeA, upload.id) == data)
        // The assembled file is temporary.
        let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: nodeA.scratch.path)) ?? []
        #expect(leftovers.isEmpty)

        var imported = upload
        imported.uploaderName = "ana"
        try await nodeB.save(imported)
        #expect(try await nodeA.record(id: upload.id) == imported)
        await nodeA.discardBytes(id: upload.id)
        #expect(try await nodeB.offset(id: upload.id) == 0)
        #expect(try await nodeB.record(id: upload.id) == imported, "the record stays to answer HEAD")
        await nodeB.remove(id: upload.id)
        #expect(try await nodeA.record(id: upload.id) == nil)
        #expect(try await bucket.client.listAll(bucket: bucket.name, prefix: "lib/uploads/\(upload.id)/").isEmpty)
    }

    @Test("Bytes a writer still holds are not counted: a node that dies before storing them loses only those")
    func heldBytesAreNotCounted() async throws {
        let bucket = try await SeaweedBucket.fresh()
        let (nodeA, nodeB) = (Self.node(bucket), Self.node(bucket))
        let upload = Self.record(length: 500_000)
        try await nodeA.create(upload)
        let writer = try await nodeA.openWriter(id: upload.id, at: 0)
        try await writer.write(ByteBuffer(bytes: patterned(Self.partBytes, seed: 1)))
        try await writer.write(ByteBuffer(bytes: patterned(10_000, seed: 2)))
        #expect(writer.offset == Int64(Self.partBytes + 10_000))
        // The full part went up as soon as it was there (whole or not at all); the last 10,000
        // bytes are held by the writer only.
        #expect([0, Int64(Self.partBytes)].contains(try await nodeB.offset(id: upload.id)))
        await writer.close()  // the node "dies" with bytes held: they are never stored
        #expect(try await nodeB.offset(id: upload.id) == Int64(Self.partBytes))
        let resumed = try await nodeB.openWriter(id: upload.id, at: try await nodeB.offset(id: upload.id))
        #expect(resumed.offset == Int64(Self.partBytes))
    }

    @Test("A rewind (checksum failure) deletes only the rewinding writer's parts")
    func rewindDeletesOnlyOwnParts() async throws {
        let bucket = try await SeaweedBucket.fresh()
        let (nodeA, nodeB) = (Self.node(bucket), Self.node(bucket))
        let good = patterned(100_000, seed: 5)
        let upload = Self.record(length: 1_000_000)
        try await nodeA.create(upload)
        let first = try await nodeA.openWriter(id: upload.id, at: 0)
        try await Self.send(good, to: first)
        try await first.flush()

        let bad = try await nodeB.openWriter(id: upload.id, at: try await nodeB.offset(id: upload.id))
        try await Self.send(patterned(200_000, seed: 6), to: bad)
        try await bad.flush()
        #expect(try await nodeA.offset(id: upload.id) == 300_000)
        try await bad.rewind(to: 100_000)
        #expect(bad.offset == 100_000)
        #expect(try await nodeA.offset(id: upload.id) == 100_000)
        // A writer never rewinds into bytes it did not write.
        await #expect(throws: PipelineError.self) { try await bad.rewind(to: 50_000) }

        // Within held bytes a rewind just forgets the tail.
        try await bad.write(ByteBuffer(bytes: Data("abcdef".utf8)))
        try await bad.rewind(to: 100_003)
        try await bad.write(ByteBuffer(bytes: Data("!".utf8)))
        try await bad.flush()
        let bytes = try await Self.completed(nodeA, upload.id)
        #expect(bytes == good + Data("abc!".utf8))
    }

    @Test("A writer opened at the offset its PATCH checked races for that offset, even once another node's part is there")
    func staleCheckStillConflicts() async throws {
        let bucket = try await SeaweedBucket.fresh()
        let (nodeA, nodeB) = (Self.node(bucket), Self.node(bucket))
        let upload = Self.record(length: 1_000_000)
        try await nodeA.create(upload)
        // Both PATCHes found Upload-Offset 0 right; node A's part lands before node B opens.
        let checkedByB = try await nodeB.offset(id: upload.id)
        let first = try await nodeA.openWriter(id: upload.id, at: 0)
        try await Self.send(patterned(90_000, seed: 1), to: first)
        try await first.flush()
        await first.close()
        let late = try await nodeB.openWriter(id: upload.id, at: checkedByB)
        try await Self.send(patterned(90_000, seed: 2), to: late)
        await #expect(throws: PipelineError.self) { try await late.flush() }
        await late.close()
        // B's bytes are nowhere: not after A's part, where a re-read offset would have put them.
        #expect(try await nodeA.offset(id: upload.id) == 90_000)
        #expect(try await Self.completed(nodeA, upload.id) == patterned(90_000, seed: 1))
    }

    @Test("Two nodes writing one upload at the same offset: exactly one stores its bytes, the other gets a conflict")
    func conditionalWriteRace() async throws {
        let bucket = try await SeaweedBucket.fresh()
        for trial in 0..<6 {
            let upload = Self.record(length: 10_000_000)
            try await Self.node(bucket).create(upload)
            let contenders = 6
            // Every writer found the offset at 0 (as each node's PATCH checked) before any writes.
            let startLine = StartLine(count: contenders)
            let outcomes = try await withThrowingTaskGroup(of: (UInt8, Bool).self) { group in
                for seed in 0..<contenders {
                    group.addTask {
                        let writer = try await Self.node(bucket).openWriter(id: upload.id, at: 0)
                        #expect(writer.offset == 0)
                        await startLine.arrive()
                        do {
                            try await Self.send(patterned(90_000, seed: UInt8(seed)), to: writer)
                            try await writer.flush()
                            return (UInt8(seed), true)
                        } catch PipelineError.uploadConflict {
                            return (UInt8(seed), false)
                        }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let winners = outcomes.filter(\.1).map(\.0)
            #expect(winners.count == 1, "trial \(trial): \(winners.count) writers stored their bytes")
            let winner = try #require(winners.first)
            #expect(try await Self.node(bucket).offset(id: upload.id) == 90_000)
            #expect(try await Self.completed(Self.node(bucket), upload.id) == patterned(90_000, seed: winner))
        }
    }

    @Test("Parts after a gap do not count; the record and part keys refuse a malformed id")
    func gapsAndIDs() async throws {
        let bucket = try await SeaweedBucket.fresh()
        let storage = Self.node(bucket)
        let upload = Self.record(length: 100)
        try await storage.create(upload)
        let prefix = "lib/uploads/\(upload.id)/parts/"
        try await bucket.client.putObject(bucket: bucket.name, key: prefix + "00000000000000000000", body: Data(repeating: 1, count: 10))
        try await bucket.client.putObject(bucket: bucket.name, key: prefix + "00000000000000000020", body: Data(repeating: 2, count: 10))
        try await bucket.client.putObject(bucket: bucket.name, key: prefix + "00000000000000000005", body: Data(repeating: 3, count: 10))
        #expect(try await storage.offset(id: upload.id) == 10)
        for bad in ["../x", "", String(upload.id.dropLast()) + "G"] {
            await #expect(throws: PipelineError.self) { _ = try await storage.record(id: bad) }
            await #expect(throws: PipelineError.self) { _ = try await storage.offset(id: bad) }
        }
    }

    @Test("Scans: expired records, stray parts after an hour, complete uploads awaiting import")
    func scans() async throws {
        let bucket = try await SeaweedBucket.fresh()
        let storage = Self.node(bucket)
        let now = Date()
        let expired = Self.record(length: 5, expires: now.addingTimeInterval(-10))
        let live = Self.record(length: 5)
        let complete = Self.record(length: 4)
        var imported = Self.record(length: 4)
        imported.outcome = ImportedPost(postID: 9, jobIDs: [3])
        for upload in [expired, live, complete, imported] { try await storage.create(upload) }
        for upload in [complete, imported] {
            let writer = try await storage.openWriter(id: upload.id, at: 0)
            try await writer.write(ByteBuffer(bytes: Data("abcd".utf8)))
            try await writer.flush()
        }
        // Parts whose record is gone (a removal that stopped half-way).
        let stray = UploadRecord.makeID()
        try await bucket.client.putObject(bucket: bucket.name, key: "lib/uploads/\(stray)/parts/00000000000000000000", body: Data("x".utf8))

        #expect(try await storage.expired(now: now) == [expired.id])
        #expect(try await storage.expired(now: now.addingTimeInterval(7200)) == [expired.id, live.id, complete.id, imported.id, stray].sorted())
        #expect(try await storage.awaitingImport().map(\.id) == [complete.id])

        for id in try await storage.expired(now: now) { await storage.remove(id: id) }
        #expect(try await storage.record(id: expired.id) == nil)
        #expect(try await storage.expired(now: now).isEmpty)
    }
}

/// Holds tasks until `count` of them have arrived, then lets them all go at once.
actor StartLine {
    private let count: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(count: Int) { self.count = count }

    func arrive() async {
        if waiting.count + 1 == count {
            waiting.forEach { $0.resume() }
            waiting.removeAll()
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }
}
