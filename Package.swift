// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "VirtualTourist",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "virtual-tourist", targets: ["virtual-tourist"]),
        // For the fuzzers in Tests/fuzz (a separate package that depends on this one by path).
        .library(name: "FlickrClient", targets: ["FlickrClient"]),
        .library(name: "TouristStore", targets: ["TouristStore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // System libraries: a modulemap and a one-line umbrella header each.
        .systemLibrary(name: "CGtk", pkgConfig: "gtk+-3.0",
                       providers: [.apt(["libgtk-3-dev"])]),
        .systemLibrary(name: "COsmGpsMap", pkgConfig: "osmgpsmap-1.0",
                       providers: [.apt(["libosmgpsmap-1.0-dev"])]),
        // The few C functions Swift cannot call directly (macros, variadics, the main-queue bridge).
        .target(name: "CShims", dependencies: ["CGtk", "COsmGpsMap"],
                linkerSettings: [.linkedLibrary("dispatch")]),
        // Thin Swift layer over GObject: references, signals as closures, the main-loop bridge.
        .target(name: "GLibSwift", dependencies: ["CGtk", "CShims", .product(name: "Logging", package: "swift-log")]),
        // The model: pins, photos, viewport; migrations; photo files on disk. No GTK.
        .target(name: "TouristStore", dependencies: [.product(name: "GRDB", package: "GRDB.swift")]),
        // The Flickr API: requests, decoding, errors, paging, downloads. No GTK, no store.
        .target(name: "FlickrClient", dependencies: [.product(name: "Logging", package: "swift-log")]),
        // Albums: search, store and download a pin's photos; no GTK, no HTTP of its own.
        .target(name: "TouristAlbums", dependencies: ["FlickrClient", "TouristStore",
                                                      .product(name: "Logging", package: "swift-log")]),
        // Windows, pages and widgets.
        .target(name: "TouristUI", dependencies: ["CGtk", "COsmGpsMap", "CShims", "GLibSwift", "TouristStore",
                                                 "TouristAlbums", "FlickrClient",
                                                 .product(name: "Logging", package: "swift-log")]),
        .executableTarget(name: "virtual-tourist", dependencies: ["TouristUI", "TouristStore", "GLibSwift",
                                                                "TouristAlbums", "FlickrClient", "CShims",
                                                                .product(name: "Logging", package: "swift-log")]),

        .testTarget(name: "TouristStoreTests", dependencies: ["TouristStore"]),
        // A Flickr-compatible HTTP server (Python) and helpers shared by the client and album tests.
        .target(name: "FlickrTestSupport", dependencies: [.product(name: "Logging", package: "swift-log")],
                path: "Tests/FlickrTestSupport", resources: [.copy("Server")]),
        .testTarget(name: "FlickrClientTests", dependencies: ["FlickrClient", "FlickrTestSupport"]),
        .testTarget(name: "TouristAlbumsTests", dependencies: ["TouristAlbums", "FlickrClient", "TouristStore",
                                                               "FlickrTestSupport"]),
        .testTarget(name: "GLibSwiftTests", dependencies: ["GLibSwift", "CGtk"]),
        .testTarget(name: "TouristUITests", dependencies: ["TouristUI", "TouristStore", "FlickrClient", "GLibSwift", "CGtk"]),
    ],
    swiftLanguageModes: [.v6]
)
