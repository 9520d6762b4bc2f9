// swift-tools-version: 6.0
// SPDX-License-Identifier: Apache-2.0
import PackageDescription

let package = Package(
    name: "PlacesCost",
    products: [
        .executable(name: "placescost", targets: ["placescost"]),
        .library(name: "PlacesCostKit", targets: ["PlacesCostKit"]),
    ],
    targets: [
        .target(name: "PlacesCostKit"),
        .executableTarget(name: "placescost", dependencies: ["PlacesCostKit"]),
        // The slow, obviously-correct twins and oracles the tests hold the engine to; only the
        // tests (and scripts/fuzz.sh) use it, never the library or the executable.
        .target(name: "PlacesCostReference", dependencies: ["PlacesCostKit"]),
        .testTarget(
            name: "PlacesCostKitTests",
            // The executable is a dependency so that the end-to-end tests find it built beside them.
            dependencies: ["PlacesCostKit", "PlacesCostReference", "placescost"],
            exclude: ["Fixtures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
