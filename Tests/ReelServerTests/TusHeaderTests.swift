import Foundation
import HTTPTypes
import Testing
@testable import ReelServer

@Suite("tus headers, parsed without a server")
struct TusHeaderTests {
    private func fields(_ pairs: [(String, String)]) -> HTTPFields {
        var fields = HTTPFields()
        for (name, value) in pairs { fields[HTTPField.Name(name)!] = value }
        return fields
    }

    @Test("Tus-Resumable must be 1.0.0")
    func version() throws {
        try TusHeaders.requireVersion(fields([("Tus-Resumable", "1.0.0")]))
        #expect(throws: APIError.self) { try TusHeaders.requireVersion(fields([])) }
        #expect(throws: APIError.self) { try TusHeaders.requireVersion(fields([("Tus-Resumable", "0.2.2")])) }
        do {
            try TusHeaders.requireVersion(fields([]))
        } catch let error as APIError {
            #expect(error.status.code == 412)
        }
    }

    @Test("Upload-Length: required (413), within the limit (413 naming it), a plain non-negative integer (400)")
    func length() throws {
        #expect(try TusHeaders.uploadLength(fields([("Upload-Length", "50000000")]), maxBytes: 50_000_000) == 50_000_000)
        #expect(try TusHeaders.uploadLength(fields([("Upload-Length", "0")]), maxBytes: 10) == 0)
        func status(_ pairs: [(String, String)]) -> (Int, String) {
            do {
                _ = try TusHeaders.uploadLength(fields(pairs), maxBytes: 50_000_000)
                return (0, "")
            } catch let error as APIError {
                return (error.status.code, error.message)
            } catch {
                return (-1, "\(error)")
            }
        }
        #expect(status([]).0 == 413)
        let over = status([("Upload-Length", "50000001")])
        #expect(over.0 == 413 && over.1.contains("limited to 50 MB (50000000 bytes)"))
        for bad in ["-1", "+5", "1e3", "abc", " ", "99999999999999999999"] {
            #expect(status([("Upload-Length", bad)]).0 == 400, "\(bad)")
        }
        #expect(status([("Upload-Defer-Length", "1")]).0 == 400)
    }

    @Test("Upload-Metadata: base64 values, keys without values, no duplicates")
    func metadata() throws {
        let text = "filename YmVhY2gubXA0,is_private,description 8J+MiiBzdXJm"
        #expect(try TusHeaders.metadata(text) == ["filename": "beach.mp4", "is_private": "", "description": "🌊 surf"])
        #expect(try TusHeaders.metadata(nil) == [:])
        #expect(try TusHeaders.metadata("  ") == [:])
        for bad in ["a b c", "a YQ==,a YQ==", "k !!!", "k //8=", ",", "ké YQ=="] {
            #expect(throws: APIError.self, "\(bad)") { try TusHeaders.metadata(bad) }
        }
        // Bounded (schemathesis sent 4 KB of key and the upload was created with it).
        let longest = "k" + String(repeating: "d", count: TusHeaders.maxMetadataBytes - 1)
        #expect(try TusHeaders.metadata(longest).count == 1)
        #expect(throws: APIError.self) { try TusHeaders.metadata(longest + "d") }
    }

    @Test("Upload-Checksum: sha1 and sha256 in base64; others are 400")
    func checksum() throws {
        let parsed = try #require(try TusHeaders.checksum("sha1 Kq5sNclPz7QV2+lfQIuc6R7oRu0="))
        #expect(parsed.algorithm == .sha1 && parsed.digest.count == 20)
        #expect(try TusHeaders.checksum(nil) == nil)
        #expect(try TusHeaders.checksum("SHA256 " + Data(count: 32).base64EncodedString())?.algorithm == .sha256)
        for bad in ["md5 AAAA", "sha1", "sha1 not base64!", "sha1 a b"] {
            #expect(throws: APIError.self, "\(bad)") { try TusHeaders.checksum(bad) }
        }
        var hasher = parsed.hasher()
        Array("hello world".utf8).withUnsafeBytes { hasher.update($0) }
        #expect(hasher.finalize() == parsed.digest)
    }

    @Test("Upload-Expires is an IMF-fixdate in GMT")
    func expires() {
        #expect(TusHeaders.httpDate(Date(timeIntervalSince1970: 1_700_000_000)) == "Tue, 14 Nov 2023 22:13:20 GMT")
        #expect(TusHeaders.httpDate(Date(timeIntervalSince1970: 0)) == "Thu, 01 Jan 1970 00:00:00 GMT")
    }

    @Test("sizes read as megabytes with the exact byte count")
    func describe() {
        #expect(TusHeaders.describe(bytes: 50_000_000) == "50 MB (50000000 bytes)")
        #expect(TusHeaders.describe(bytes: 2_500_000) == "2.5 MB (2500000 bytes)")
    }
}

@Suite("Upload locks")
struct UploadLockTests {
    @Test("writes to one upload run one at a time; another upload is not held up")
    func serialised() async throws {
        let locks = UploadLocks()
        let log = OrderLog()
        let firstHolds = Latch(), firstMayEnd = Latch()
        async let first: Void = locks.withLock("a", wait: .seconds(30)) {
            await firstHolds.open()
            await firstMayEnd.wait()
            await log.add("first end")
        }
        await firstHolds.wait()
        try await locks.withLock("b", wait: .milliseconds(100)) { await log.add("other") }
        async let second: Void = locks.withLock("a", wait: .seconds(30)) { await log.add("second") }
        // A broken lock lets "second" in during this pause; a working one keeps it out until the
        // first ends. (A slow machine can only make the pause too short to see it, never fail.)
        try await Task.sleep(for: .milliseconds(100))
        #expect(await !log.entries.contains("second"))
        await firstMayEnd.open()
        _ = try await (first, second)
        #expect(await log.entries == ["other", "first end", "second"])
    }

    @Test("a waiter gives up with 423 after its wait; the lock is free again after an error")
    func timeout() async throws {
        let locks = UploadLocks()
        let holding = Latch(), mayRelease = Latch()
        async let holder: Void = locks.withLock("a", wait: .seconds(30)) {
            await holding.open()
            await mayRelease.wait()
        }
        await holding.wait()
        do {
            try await locks.withLock("a", wait: .milliseconds(100)) {}
            Issue.record("expected 423")
        } catch let error as APIError {
            #expect(error.status.code == 423)
        }
        await mayRelease.open()
        try await holder
        await #expect(throws: APIError.self) { try await locks.withLock("a", wait: .seconds(1)) { throw APIError.badRequest("x") } }
        let value = try await locks.withLock("a", wait: .milliseconds(10)) { 7 }
        #expect(value == 7)
    }
}

/// A one-way door between test tasks, so an ordering never rests on a sleep being long enough
/// (CI once ran the waiter before a holder that had had 50 ms to take the lock).
actor Latch {
    private var isOpen = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func open() {
        isOpen = true
        waiting.forEach { $0.resume() }
        waiting.removeAll()
    }

    func wait() async {
        guard !isOpen else { return }
        await withCheckedContinuation { waiting.append($0) }
    }
}

actor OrderLog {
    private(set) var entries: [String] = []
    func add(_ entry: String) { entries.append(entry) }
}
