// swift-tools-version:6.0
// libFuzzer targets for Virtual Tourist. A separate package, so the app's own build never links
// libFuzzer. Build and run them with `Tests/fuzz/run` (it passes -sanitize=fuzzer,address).
// The app's package is reached through the symlink VirtualTourist -> ../..: a path dependency's
// identity is its folder's name, and "../.." would be named after the checkout's folder (which
// clashes with this package's own identity, "fuzz", in a checkout named fuzz).
import PackageDescription

let package = Package(
    name: "VirtualTouristFuzz",
    dependencies: [
        .package(path: "VirtualTourist"),
    ],
    targets: [
        // Declares LLVMFuzzerRunDriver (libFuzzer's driver), which each fuzzer's main calls.
        .target(name: "CLibFuzzer"),
        // Bytes -> SearchResponseDecoding.decode: any FlickrError is fine; a crash, hang or leak is a finding.
        .executableTarget(name: "fuzz-search",
                          dependencies: ["CLibFuzzer", .product(name: "FlickrClient", package: "VirtualTourist")]),
        // Strings -> AppDatabase.isPhotoPath: whenever it says yes, the path must stay inside photos/.
        .executableTarget(name: "fuzz-photo-path",
                          dependencies: ["CLibFuzzer", .product(name: "TouristStore", package: "VirtualTourist")]),
    ],
    swiftLanguageModes: [.v6]
)
