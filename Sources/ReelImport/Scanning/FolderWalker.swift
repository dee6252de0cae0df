import Foundation

/// What one folder holds, sorted into media, possible metadata, and files to report.
struct FolderListing {
    struct MediaEntry {
        let entry: FolderEntry
        /// The resolved target when the entry is a symbolic link, nil for a real file.
        let linkTarget: String?
    }

    /// The folder's path relative to its scanned root ("" for the root itself).
    var displayPrefix: String
    var media: [MediaEntry] = []
    var companions: [FolderEntry] = []
    var ignored: [IgnoredFile] = []
    /// False when only one file of the folder was asked for: then the folder's other
    /// metadata files are none of the report's business.
    var reportsOrphans = true
}

/// Lists folders recursively while remembering what it has seen across all roots of one
/// scan, so overlapping roots and links back up the tree list every folder once.
struct FolderWalker {
    private var visitedFolders: Set<String> = []
    /// Resolved paths of every real (non-link) media file listed, so links to them can be dropped.
    private(set) var realFiles: Set<String> = []
    private let fileManager = FileManager.default

    mutating func list(root: URL) throws(ImportError) -> [FolderListing] {
        var isFolder: ObjCBool = false
        guard fileManager.fileExists(atPath: root.path, isDirectory: &isFolder) else {
            throw .rootNotFound(root.path)
        }
        guard isFolder.boolValue else { return listSingleFile(root).map { [$0] } ?? [] }
        let names: [String]
        do {
            names = try fileManager.contentsOfDirectory(atPath: root.path)
        } catch {
            throw .unreadable(path: root.path, reason: Self.reason(error))
        }
        var listings: [FolderListing] = []
        walk(root, names: names, displayPrefix: "", into: &listings)
        return listings
    }

    /// A file named on the command line is imported on its own, but its sidecar and caption
    /// are still looked up next to it.
    private mutating func listSingleFile(_ file: URL) -> FolderListing? {
        let name = file.lastPathComponent
        var listing = FolderListing(displayPrefix: "", reportsOrphans: false)
        guard MediaFileType(pathExtension: file.pathExtension) != nil else {
            if let reason = Self.reasonForNonMedia(name) { listing.ignored.append(IgnoredFile(path: name, reason: reason)) }
            return listing
        }
        let folder = file.deletingLastPathComponent()
        let resolvedFolder = folder.resolvingSymlinksInPath().path
        guard let media = mediaEntry(name: name, url: file, resolvedFolder: resolvedFolder) else { return nil }
        listing.media = [media]
        let siblings = (try? fileManager.contentsOfDirectory(atPath: folder.path)) ?? []
        listing.companions = siblings.sorted().filter(Self.isCompanion).map { FolderEntry(name: $0, url: folder.appendingPathComponent($0)) }
        return listing
    }

    private mutating func walk(_ folder: URL, names: [String], displayPrefix: String, into listings: inout [FolderListing]) {
        let resolvedFolder = folder.resolvingSymlinksInPath().path
        guard visitedFolders.insert(resolvedFolder).inserted else { return }

        var listing = FolderListing(displayPrefix: displayPrefix)
        var subfolders: [(name: String, url: URL)] = []
        for name in names.sorted() where !name.hasPrefix(".") {
            let url = folder.appendingPathComponent(name)
            let displayPath = displayPrefix.isEmpty ? name : displayPrefix + "/" + name
            var isFolder: ObjCBool = false
            guard fileManager.fileExists(atPath: url.path, isDirectory: &isFolder) else {
                listing.ignored.append(IgnoredFile(path: displayPath, reason: "broken symbolic link"))
                continue
            }
            if isFolder.boolValue {
                subfolders.append((name, url))
            } else if !Self.isRegularFile(atPath: url.resolvingSymlinksInPath().path) {
                listing.ignored.append(IgnoredFile(path: displayPath, reason: "not a regular file"))
            } else if MediaFileType(pathExtension: url.pathExtension) != nil {
                if let media = mediaEntry(name: name, url: url, resolvedFolder: resolvedFolder) { listing.media.append(media) }
            } else if Self.isCompanion(name) {
                listing.companions.append(FolderEntry(name: name, url: url))
            } else if let reason = Self.reasonForNonMedia(name) {
                listing.ignored.append(IgnoredFile(path: displayPath, reason: reason))
            }
        }
        listings.append(listing)

        for subfolder in subfolders {
            let displayPath = displayPrefix.isEmpty ? subfolder.name : displayPrefix + "/" + subfolder.name
            do {
                let names = try fileManager.contentsOfDirectory(atPath: subfolder.url.path)
                walk(subfolder.url, names: names, displayPrefix: displayPath, into: &listings)
            } catch {
                listings.append(FolderListing(
                    displayPrefix: displayPrefix,
                    ignored: [IgnoredFile(path: displayPath, reason: "cannot read folder (\(Self.reason(error)))")]
                ))
            }
        }
    }

    /// Nil for a real file already listed (overlapping roots). A real file's identity is its
    /// resolved folder plus its name; a link's is its fully resolved target.
    private mutating func mediaEntry(name: String, url: URL, resolvedFolder: String) -> FolderListing.MediaEntry? {
        let entry = FolderEntry(name: name, url: url)
        if (try? fileManager.destinationOfSymbolicLink(atPath: url.path)) != nil {
            return FolderListing.MediaEntry(entry: entry, linkTarget: url.resolvingSymlinksInPath().path)
        }
        guard realFiles.insert(resolvedFolder + "/" + name).inserted else { return nil }
        return FolderListing.MediaEntry(entry: entry, linkTarget: nil)
    }

    private static func isCompanion(_ name: String) -> Bool {
        guard !name.hasPrefix(".") else { return false }
        let kind = CompanionKind(fileName: name)
        return kind == .sidecar || kind == .caption || kind == .subtitles
    }

    /// Why a file that is not media is skipped, or nil when it is not worth mentioning.
    private static func reasonForNonMedia(_ name: String) -> String? {
        switch CompanionKind(fileName: name) {
        case .junk: return nil
        case .sidecar: return "metadata file without a matching media file"
        case .caption: return "text file without a matching media file"
        case .subtitles: return "subtitles without a matching video"
        case .partialDownload: return "unfinished download"
        case .unsupported:
            let fileExtension = (name as NSString).pathExtension
            return fileExtension.isEmpty ? "unsupported file type (no extension)" : "unsupported file type .\(fileExtension.lowercased())"
        }
    }

    /// FIFOs, sockets and devices would hang or confuse whoever reads them later.
    private static func isRegularFile(atPath path: String) -> Bool {
        let type = (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
        return type == .typeRegular
    }

    private static func reason(_ error: any Error) -> String {
        (error as NSError).localizedDescription
    }
}
