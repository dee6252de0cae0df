import CoreTransferable
import Foundation
import UniformTypeIdentifiers

/// A movie or photo from the photo library, copied to a file the app owns: the picker's own
/// file is only valid inside the import closure, and an interrupted upload resumes from this
/// copy after a relaunch (so it lives under Caches, not the temporary folder).
struct PickedMedia: Transferable {
    let url: URL

    static var transferRepresentation: some TransferRepresentation {
        FileRepresentation(importedContentType: .movie) { received in try copy(received.file) }
        FileRepresentation(importedContentType: .image) { received in try copy(received.file) }
    }

    static func copy(_ source: URL) throws -> PickedMedia {
        let folder = URL.cachesDirectory.appending(path: "Uploads", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let ext = source.pathExtension.isEmpty ? "mov" : source.pathExtension.lowercased()
        let target = folder.appending(path: "\(UUID().uuidString).\(ext)")
        try FileManager.default.copyItem(at: source, to: target)
        return PickedMedia(url: target)
    }
}
