import Foundation
import ReelProcess
import ReelStorage

/// instaloader writes its metadata as `.json.xz`. Foundation has no LZMA, so the system's `xz`
/// decompresses it; this runs synchronously because sidecar loading is synchronous.
enum XZ {
    static func decompress(_ url: URL) throws -> Data {
        guard let xz = ExecutableLocator.find("xz") else { throw PipelineError.toolMissing("xz") }
        let process = Process()
        process.executableURL = xz
        process.arguments = ["-dc", "--", url.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw PipelineError.toolFailed("xz", "cannot decompress \(url.lastPathComponent)")
        }
        return data
    }
}
