import Foundation

// Top-level code runs on the main actor, where the player pool lives.
do {
    let options = try DemoOptions.parse(Array(CommandLine.arguments.dropFirst()))
    try await FeedWalk(options: options).run()
} catch let error as DemoError {
    FileHandle.standardError.write(Data("reelkit-demo: \(error)\n".utf8))
    exit(2)
} catch {
    FileHandle.standardError.write(Data("reelkit-demo: \(error)\n".utf8))
    exit(1)
}
