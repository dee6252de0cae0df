// swift-tools-version: 6.0
// The iPhone app as an app package (a `.swiftpm` folder with an `.iOSApplication` product):
// Xcode and Swift Playgrounds open it as is, with no generated project to keep in step. An
// XcodeGen `project.yml` would need a tool run before every open and would keep a second list
// of files; this manifest only names the root package's libraries, which it builds from source.
// The root package's manifest is swift-tools-version 6.1, so the toolchain opening this needs
// Swift 6.1 or newer (Xcode 16.3+).
import AppleProductTypes
import PackageDescription

let package = Package(
    name: "Reelhouse",
    platforms: [.iOS("17.0")],
    products: [
        .iOSApplication(
            name: "Reelhouse",
            targets: ["AppModule"],
            bundleIdentifier: "org.reelhouse.app",
            displayVersion: "1.0",
            bundleVersion: "1",
            accentColor: .presetColor(.pink),
            supportedDeviceFamilies: [.phone],
            supportedInterfaceOrientations: [.portrait, .landscapeLeft, .landscapeRight],
            // The `reelhouse://` URL scheme for deep links (reelhouse://p/42).
            additionalInfoPlistContentFilePath: "AdditionalInfo.plist"
        ),
    ],
    dependencies: [
        // The repository root. `name:` keeps the products resolvable whatever the clone's
        // folder is called (a path dependency's identity is its folder name).
        .package(name: "reelhouse", path: "../../.."),
    ],
    targets: [
        .executableTarget(
            name: "AppModule",
            dependencies: [
                .product(name: "ReelFeatures", package: "reelhouse"),
                .product(name: "ReelKit", package: "reelhouse"),
                .product(name: "ReelKitAVFoundation", package: "reelhouse"),
                .product(name: "ReelModels", package: "reelhouse"),
            ],
            path: "Sources"
        ),
    ]
)
