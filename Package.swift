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
        // On the Map server (issue 9); OnTheMapAPI is the wire format the desktop client will share.
        .executable(name: "on-the-map-server", targets: ["on-the-map-server"]),
        .library(name: "OnTheMapAPI", targets: ["OnTheMapAPI"]),
        // On the Map's desktop client (issue 10).
        .executable(name: "on-the-map", targets: ["on-the-map"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // On the Map server: HTTP, bcrypt, PostgreSQL, graceful shutdown, the command line, SHA-256, NIO's thread pool.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        // On the Map server's /metrics: counters and histograms, exposed in Prometheus' text format.
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // Photo downloads: HTTP/2 (one multiplexed connection to a CDN) or HTTP/1.1 keep-alive, on SwiftNIO.
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        // Places in and out: Organic Maps' and Google Earth's KMZ are zip archives.
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
    ],
    targets: [
        // System libraries: a modulemap and a one-line umbrella header each.
        .systemLibrary(name: "CGtk", pkgConfig: "gtk+-3.0",
                       providers: [.apt(["libgtk-3-dev"])]),
        .systemLibrary(name: "COsmGpsMap", pkgConfig: "osmgpsmap-1.0",
                       providers: [.apt(["libosmgpsmap-1.0-dev"])]),
        .systemLibrary(name: "CGeonames", pkgConfig: "geonames",
                       providers: [.apt(["libgeonames-dev"])]),
        .systemLibrary(name: "CPwquality", pkgConfig: "pwquality",
                       providers: [.apt(["libpwquality-dev"])]),
        // On the Map's "Stay logged in": the session in the user's keyring (Secret Service).
        .systemLibrary(name: "CSecret", pkgConfig: "libsecret-1",
                       providers: [.apt(["libsecret-1-dev"])]),
        // The few GLib/GTK functions Swift cannot call directly (macros, variadics, the main-queue bridge).
        .target(name: "CShims", dependencies: ["CGtk"],
                linkerSettings: [.linkedLibrary("dispatch")]),
        // osm-gps-map's variadic properties and the drawing layer, a GObject type Swift cannot define.
        .target(name: "COsmGpsMapShims", dependencies: ["CGtk", "COsmGpsMap"]),
        // The Flickr key meson bakes into Virtual Tourist (a C macro), built by Virtual Tourist only.
        .target(name: "CFlickrBuildKey"),
        // Thin Swift layer over GObject: references, signals as closures, the main-loop bridge.
        .target(name: "GLibSwift", dependencies: ["CGtk", "CShims", "Translations", .product(name: "Logging", package: "swift-log")]),
        // gettext for both apps' user-visible text (one catalogue, po/) and the user's locale for numbers and dates.
        .systemLibrary(name: "CIntl"),
        .target(name: "Translations", dependencies: ["CIntl"]),
        // The windows' GtkBuilder files (data/ui) compiled into one GResource (Plugins/CompileLayouts), registered at start-up.
        .plugin(name: "CompileLayouts", capability: .buildTool()),
        .target(name: "Layouts", dependencies: ["CGtk", "GLibSwift", "Translations"], plugins: ["CompileLayouts"]),
        // The desktop apps' swift-log backend: microsecond-stamped lines on standard error, the level from the environment.
        .target(name: "AppLogging", dependencies: [.product(name: "Logging", package: "swift-log")]),
        // The osm-gps-map widget as both apps use it: tile source, pin layer, pin images, gestures. No store.
        .target(name: "MapView", dependencies: ["Translations", "CGtk", "COsmGpsMap", "COsmGpsMapShims", "GLibSwift", "PinClusters", "MapTiles",
                                               .product(name: "Logging", package: "swift-log")]),
        // HTTP for photos, Flickr, tiles and place names (AsyncHTTPClient; WebClient says why): a client per proxy,
        // the environment's proxies and trust roots, whole-body GETs with a deadline, failures a person can act on.
        // No GTK, no app types.
        .target(name: "WebAccess", dependencies: ["Translations", .product(name: "AsyncHTTPClient", package: "async-http-client"),
                                                  .product(name: "NIOCore", package: "swift-nio"),
                                                  .product(name: "NIOHTTP1", package: "swift-nio"),
                                                  .product(name: "NIOPosix", package: "swift-nio"),
                                                  .product(name: "NIOSSL", package: "swift-nio-ssl")]),
        // Files kept on disk: written whole (a temporary renamed into place), caches trimmed to their newest files.
        .target(name: "KeptFiles"),
        // Names from outside — place files, Flickr, On the Map — made one safe line of bounded length. No GTK.
        .target(name: "PlainText"),
        // Map tiles without GTK: tile maths, the disk cache and its staleness, fetching, the built-in world basemap.
        .target(name: "MapTiles", dependencies: ["Translations", "WebAccess", "KeptFiles", .product(name: "GRDB", package: "GRDB.swift")]),
        // Pin clusters per zoom level (the supercluster approach: a k-d tree per level). Pure Swift: no GTK, no store.
        .target(name: "PinClusters"),
        // Place names and search: libgeonames offline, Nominatim online, one rate limiter. No GTK.
        .target(name: "Places", dependencies: ["Translations", "CGeonames", "WebAccess", .product(name: "Logging", package: "swift-log")]),
        // The model: pins, photos, viewport; migrations; photo files on disk. No GTK.
        .target(name: "TouristStore", dependencies: ["Translations", "PlainText", .product(name: "GRDB", package: "GRDB.swift")]),
        // The Flickr API: requests, decoding, errors, paging, downloads. No GTK, no store.
        .target(name: "FlickrClient", dependencies: ["Translations", "WebAccess", "KeptFiles", "PlainText", .product(name: "Logging", package: "swift-log"),
                                                     .product(name: "AsyncHTTPClient", package: "async-http-client"),
                                                     .product(name: "NIOCore", package: "swift-nio"),
                                                     .product(name: "NIOHTTP1", package: "swift-nio"),
                                                     .product(name: "NIOPosix", package: "swift-nio")]),
        // Albums: search, store and download a pin's photos; no GTK, no HTTP of its own.
        .target(name: "TouristAlbums", dependencies: ["Translations", "FlickrClient", "TouristStore", "KeptFiles",
                                                      .product(name: "Logging", package: "swift-log")]),
        // Names pins: offline from libgeonames at once, refined online by Nominatim. No GTK.
        .target(name: "TouristPlaces", dependencies: ["Translations", "TouristStore", "Places",
                                                    .product(name: "Logging", package: "swift-log")]),
        // Places in and out: GPX 1.1, KML 2.2/KMZ and GeoJSON (Google Takeout's and Organic Maps' among them) read and
        // written, hostile files refused whole. No GTK, no store.
        .target(name: "PlaceFiles", dependencies: ["Translations", "PlainText", .product(name: "ZIPFoundation", package: "ZIPFoundation")]),
        // The user's own geotagged photos: read with libgexiv2 (Shotwell's EXIF/XMP library), indexed in a GRDB
        // database of their own, found near a place. Never writes a photo. No GTK.
        .systemLibrary(name: "CGexiv2", pkgConfig: "gexiv2", providers: [.apt(["libgexiv2-dev"])]),
        // Which picture formats can be shown: the loaders gdk-pixbuf has (the album decodes with it).
        .systemLibrary(name: "CGdkPixbuf", pkgConfig: "gdk-pixbuf-2.0", providers: [.apt(["libgdk-pixbuf-2.0-dev"])]),
        .target(name: "OwnPhotos", dependencies: ["Translations", "CGexiv2", "CGdkPixbuf", .product(name: "GRDB", package: "GRDB.swift"),
                                                .product(name: "Logging", package: "swift-log")]),
        // Windows, pages and widgets.
        .target(name: "TouristUI", dependencies: ["Layouts", "Translations", "CGtk", "COsmGpsMap", "CShims", "GLibSwift", "MapView", "TouristStore",
                                                 "TouristAlbums", "TouristPlaces", "Places", "FlickrClient", "WebAccess", "KeptFiles",
                                                 "PlaceFiles", "OwnPhotos", .product(name: "Logging", package: "swift-log")]),
        .executableTarget(name: "virtual-tourist", dependencies: ["Layouts", "Translations", "TouristUI", "TouristStore", "GLibSwift", "AppLogging",
                                                                "TouristAlbums", "FlickrClient", "CFlickrBuildKey",
                                                                "MapTiles", "Places",
                                                                .product(name: "Logging", package: "swift-log")]),

        .testTarget(name: "TouristStoreTests", dependencies: ["TouristStore"]),
        // The Python test servers (Flickr-, Nominatim- and tile-server-compatible) and their launcher, and helpers shared by
        // the client, album, place and tile tests.
        .target(name: "FlickrTestSupport", dependencies: [.product(name: "Logging", package: "swift-log")],
                path: "Tests/FlickrTestSupport", resources: [.copy("Server")]),
        .testTarget(name: "FlickrClientTests", dependencies: ["FlickrClient", "FlickrTestSupport", "WebAccess"]),
        .testTarget(name: "TouristAlbumsTests", dependencies: ["TouristAlbums", "FlickrClient", "TouristStore",
                                                               "FlickrTestSupport"]),
        .testTarget(name: "GLibSwiftTests", dependencies: ["GLibSwift", "CGtk"]),
        .testTarget(name: "AppLoggingTests", dependencies: ["AppLogging"]),
        .testTarget(name: "TranslationsTests", dependencies: ["Translations"]),
        .testTarget(name: "TouristUITests", dependencies: ["TouristUI", "PlaceFiles", "Layouts", "MapView", "TouristStore", "FlickrClient", "GLibSwift", "CGtk",
                                                     "COsmGpsMapShims"]),

        // MARK: On the Map server (issue 9) — shares nothing with the desktop apps but OnTheMapAPI.
        // Wire types of the Udacity-compatible API: request and response bodies, dates, the prefix.
        .target(name: "OnTheMapAPI"),
        // Routes, accounts, sessions, rate limits and the storage protocol (SQLite and PostgreSQL).
        .target(name: "OnTheMapServer", dependencies: [
            "OnTheMapAPI",
            "CPwquality",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
            .product(name: "PostgresNIO", package: "postgres-nio"),
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOFoundationCompat", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
            .product(name: "Metrics", package: "swift-metrics"),
            .product(name: "Prometheus", package: "swift-prometheus"),
        ]),
        // The executable: `serve` (default) and `user add|list|remove`.
        .executableTarget(name: "on-the-map-server", dependencies: [
            "OnTheMapServer", "OnTheMapAPI",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),
        // End to end over real HTTP on 127.0.0.1, against SQLite and a throw-away PostgreSQL cluster.
        // What the server suites (the server's own and its client's) share: starting a server, and waiting for it
        // to stop with a limit.
        .target(name: "ServerTestSupport",
                dependencies: ["OnTheMapServer", .product(name: "Logging", package: "swift-log"),
                               .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")],
                path: "Tests/ServerTestSupport"),
        .testTarget(name: "OnTheMapServerTests",
                    dependencies: ["OnTheMapServer", "OnTheMapAPI", "on-the-map-server", "ServerTestSupport"]),

        // MARK: On the Map desktop client (issue 10) — talks to the server only over HTTP.
        // The API client, `StudentInformation` and the observable student directory. No GTK.
        .target(name: "StudentLocations", dependencies: ["Translations", "OnTheMapAPI", "PlainText", .product(name: "Logging", package: "swift-log")]),
        // Login page, map and list window, Add Location dialog; the kept session in the keyring (libsecret).
        .target(name: "OnTheMapUI", dependencies: ["Layouts", "Translations", "CGtk", "COsmGpsMap", "CShims", "GLibSwift", "MapView",
                                                  "StudentLocations", "Places", "CSecret",
                                                  .product(name: "Logging", package: "swift-log")]),
        .executableTarget(name: "on-the-map", dependencies: ["Layouts", "Translations", "OnTheMapUI", "StudentLocations", "Places", "GLibSwift", "AppLogging",
                                                           "MapTiles",
                                                           .product(name: "Logging", package: "swift-log")]),
        // Client tests against the real server, started in-process on 127.0.0.1.
        .testTarget(name: "StudentLocationsTests",
                    dependencies: ["StudentLocations", "OnTheMapAPI", "OnTheMapServer", "ServerTestSupport"]),
        // libgeonames for real; Nominatim through a local Nominatim-compatible server (Python); also the pin
        // namer, which uses both.
        .testTarget(name: "PlacesTests", dependencies: ["Places", "TouristPlaces", "TouristStore", "WebAccess",
                                                  "FlickrTestSupport"]),
        .testTarget(name: "PinClustersTests", dependencies: ["PinClusters"]),
        .testTarget(name: "KeptFilesTests", dependencies: ["KeptFiles"]),
        .testTarget(name: "PlainTextTests", dependencies: ["PlainText"]),
        .testTarget(name: "MapViewTests", dependencies: ["MapView"]),
        // The HTTP stack against the Flickr test server's images and faults.
        .testTarget(name: "WebAccessTests", dependencies: ["WebAccess", "FlickrTestSupport"]),
        .testTarget(name: "MapTilesTests", dependencies: ["MapTiles", "FlickrTestSupport", "WebAccess",
                                                        .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(name: "PlaceFilesTests", dependencies: ["PlaceFiles", .product(name: "ZIPFoundation", package: "ZIPFoundation")]),
        .testTarget(name: "OwnPhotosTests", dependencies: ["OwnPhotos"]),
        .testTarget(name: "OnTheMapUITests", dependencies: ["OnTheMapUI", "MapView", "StudentLocations"]),
    ],
    swiftLanguageModes: [.v6]
)
