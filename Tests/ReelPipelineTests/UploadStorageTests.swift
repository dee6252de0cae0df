import Foundation
import Logging
import NIOCore
import ReelModels
import ReelStorage
import ReelStorageLocal
import Testing
@testable import ReelPipeline
import ReelTestFiles

@Suite("Upload storage and names")
struct UploadStorageTests {
    private func temporaryStorage() -> (LocalUploadStorage, URL) {
        let root = TemporaryFolder.fresh("reel-uploads")
        return (LocalUploadStorage(root: root), root)
    }

    private func record(_ id: String = UploadRecord.makeID(), length: Int64 = 10, expires: Date) -> UploadRecord {
        UploadRecord(id: id, length: length, metadata: ["filename": "a.mp4"], userID: 1, createdAt: expires.addingTimeInterval(-60), expiresAt: expires)
    }

    @Test("ids are 32 lowercase hex digits; anything else never reaches the disk")
    func ids() throws {
        let id = UploadRecord.makeID()
        #expect(UploadRecord.isValidID(id) && id.count == 32)
        #expect(UploadRecord.makeID() != id)
        for bad in ["", "../" + String(id.dropFirst(3)), id.uppercased(), id + "0", String(id.dropLast()) + "g", "0000000000000000000000000000000/"] {
            #expect(!UploadRecord.isValidID(bad), "\(bad)")
        }
        let (storage, root) = temporaryStorage()
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(throws: PipelineError.self) { try storage.record(id: "../../etc/passwd") }
        #expect(throws: PipelineError.self) { try storage.openWriter(id: "..", at: 0) }
    }

    @Test("bytes append at the end, rewind drops a bad chunk, and the offset is the file's size")
    func appendAndRewind() async throws {
        let (storage, root) = temporaryStorage()
        defer { try? FileManager.default.removeItem(at: root) }
        let upload = record(expires: Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 60).rounded()))
        try storage.create(upload)
        #expect(try storage.record(id: upload.id) == upload)
        let writer = try storage.openWriter(id: upload.id, at: 0)
        try await writer.write(ByteBuffer(string: "hello"))
        try await writer.write(ByteBuffer(string: " world"))
        try await writer.rewind(to: 5)
        try await writer.write(ByteBuffer(string: "!"))
        try await writer.flush()
        await writer.close()
        #expect(try storage.offset(id: upload.id) == 6)
        #expect(try Data(contentsOf: storage.completedFile(id: upload.id)) == Data("hello!".utf8))
        // A second writer continues where the first stopped, and only there.
        #expect(throws: PipelineError.self) { try storage.openWriter(id: upload.id, at: 5) }
        let next = try storage.openWriter(id: upload.id, at: 6)
        #expect(next.offset == 6)
        await next.close()
        storage.remove(id: upload.id)
        #expect(try storage.record(id: upload.id) == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).isEmpty)
    }

    @Test("staged names keep safe characters and a recognised extension")
    func names() {
        let name = UploadFileName(filename: "Beach Day (final).MOV", filetype: "video/quicktime", fallback: "upload")
        #expect(name == UploadFileName(stem: "Beach-Day--final", ext: "mov"))
        #expect(UploadFileName(filename: "../../etc/passwd", filetype: nil, fallback: "upload-1") == UploadFileName(stem: "passwd", ext: "mp4"))
        #expect(UploadFileName(filename: "recording.bin", filetype: "video/webm;codecs=vp9", fallback: "f") == UploadFileName(stem: "recording", ext: "webm"))
        #expect(UploadFileName(filename: nil, filetype: "image/jpeg", fallback: "upload-ab") == UploadFileName(stem: "upload-ab", ext: "jpg"))
        #expect(UploadFileName(filename: "日本語.mp4", filetype: nil, fallback: "upload-cd") == UploadFileName(stem: "upload-cd", ext: "mp4"))
        #expect(UploadFileName(filename: String(repeating: "a", count: 300) + ".mp4", filetype: nil, fallback: "f").stem.count == 60)
    }

    @Test("metadata: tags split on commas, a known look or none, an unknown one refused")
    func metadata() throws {
        #expect(UploadMetadata.tags(" beach, ,sun ,") == ["beach", "sun"])
        #expect(UploadMetadata.tags(nil) == [])
        #expect(try UploadMetadata.filter(nil) == .none)
        #expect(try UploadMetadata.filter("mono") == .mono)
        #expect(throws: PipelineError.self) { try UploadMetadata.filter("sepia") }
    }

    @Test("metadata: story is 1 (a story) or 0 / absent (a post), nothing else")
    func storyFlag() throws {
        #expect(try UploadMetadata.story("1"))
        for post in [nil, "", "0"] { #expect(try !UploadMetadata.story(post)) }
        for bad in ["yes", "true", "2", " 1"] {
            #expect(throws: PipelineError.rejected("story must be 1 (post as your story) or 0")) { try UploadMetadata.story(bad) }
        }
    }
}
