import Foundation

/// Finds what can be imported under a set of files and folders. Lists directories only: no
/// file is opened, so scanning a large download folder is quick and has no side effects.
public enum LibraryScanner {
    /// Scans every root recursively (a root may also be a single file). Hidden files and
    /// folders are skipped silently; symbolic links are followed, but each folder is listed
    /// once (so link loops end) and each file yields at most one candidate, the real file
    /// winning over links to it (it is the one next to its sidecar). Results come in root
    /// order, sorted by path within a root.
    /// - Throws: `ImportError.rootNotFound` for a root that does not exist, and
    ///   `ImportError.unreadable` for a root folder that cannot be listed. Folders deeper
    ///   down that cannot be listed are reported in `ignored` instead.
    public static func scan(_ roots: [URL]) throws(ImportError) -> ScanResult {
        var walker = FolderWalker()
        var listingsByRoot: [[FolderListing]] = []
        for root in roots {
            listingsByRoot.append(try walker.list(root: root.standardizedFileURL))
        }

        // Grouping waits until every root is listed: only then is it known which linked
        // files are also reachable as real files.
        var linkedFilesTaken: Set<String> = []
        var result = ScanResult()
        for listings in listingsByRoot {
            var found = ScanResult()
            for listing in listings {
                let media = listing.media.filter { file in
                    guard let target = file.linkTarget else { return true }
                    return !walker.realFiles.contains(target) && linkedFilesTaken.insert(target).inserted
                }
                let grouper = PostGrouper(media: media.map(\.entry), companions: listing.companions, displayPrefix: listing.displayPrefix)
                found.candidates += grouper.candidates
                found.ignored += listing.ignored + grouper.ignored
                if listing.reportsOrphans { found.ignored += grouper.orphanedCompanions }
            }
            found.candidates.sort { $0.displayPath < $1.displayPath }
            found.ignored.sort { ($0.path, $0.reason) < ($1.path, $1.reason) }
            result.candidates += found.candidates
            result.ignored += found.ignored
        }
        return result
    }
}
