// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "nse",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "nse", targets: ["NSECommand"]),
        .library(name: "NSECore", targets: ["NSECore"]),
        .library(name: "NSECurl", targets: ["NSECurl"]),
        .library(name: "NSEMagic", targets: ["NSEMagic"]),
        .library(name: "NSEPlugins", targets: ["NSEPlugins"]),
        .library(name: "NSETesting", targets: ["NSETesting"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
    ],
    targets: [
        // C libraries, found through pkg-config.
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]
        ),
        .systemLibrary(
            name: "CMagic",
            pkgConfig: "libmagic",
            providers: [.apt(["libmagic-dev"]), .brew(["libmagic"])]
        ),

        // Engine.
        .target(
            name: "NSECore",
            dependencies: [
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        .target(name: "NSEMagic", dependencies: ["CMagic", "NSECore"]),
        .target(
            name: "NSECurl",
            dependencies: ["CCurl", "NSECore", .product(name: "Logging", package: "swift-log")]
        ),
        .target(name: "NSETesting", dependencies: ["NSECore"]),

        // Modifier plugins: each depends on NSECore and the engines it needs, never on another plugin.
        .target(
            name: "DecryptPlugin",
            dependencies: [
                "NSECore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            path: "plugins/Decrypt"
        ),
        .target(
            name: "RewritePlugin",
            dependencies: ["NSECore", .product(name: "Mustache", package: "swift-mustache")],
            path: "plugins/Rewrite"
        ),
        .target(
            name: "MediaPlugin",
            dependencies: ["NSECore", "NSECurl", "NSEMagic"],
            path: "plugins/Media"
        ),

        // The one place that maps step names to plugin factories.
        .target(name: "NSEPlugins", dependencies: ["NSECore", "DecryptPlugin", "RewritePlugin", "MediaPlugin", "NSEMagic"]),

        // Surfaces.
        .executableTarget(
            name: "NSECommand",
            dependencies: [
                "NSECore", "NSEPlugins", "NSEMagic", "DecryptPlugin",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // Benchmarks print figures; they are executables, not tests.
        .executableTarget(name: "PipelineBenchmark", dependencies: ["NSECore"], path: "Benchmarks/PipelineBenchmark"),
        .executableTarget(
            name: "DecryptBenchmark",
            dependencies: ["DecryptPlugin", "NSECore", .product(name: "Crypto", package: "swift-crypto")],
            path: "Benchmarks/DecryptBenchmark"
        ),
        .executableTarget(name: "DownloadBenchmark", dependencies: ["NSECurl"], path: "Benchmarks/DownloadBenchmark"),
        .executableTarget(name: "SniffBenchmark", dependencies: ["NSEMagic"], path: "Benchmarks/SniffBenchmark"),
        .executableTarget(
            name: "MediaBenchmark", dependencies: ["NSECore", "NSEMagic", "MediaPlugin"], path: "Benchmarks/MediaBenchmark"),

        .testTarget(name: "NSECoreTests", dependencies: ["NSECore", "NSETesting"]),
        .testTarget(name: "NSEMagicTests", dependencies: ["NSEMagic", "NSETesting"]),
        .testTarget(name: "NSECurlTests", dependencies: ["NSECurl", "NSETesting"]),
        .testTarget(
            name: "DecryptPluginTests",
            dependencies: ["DecryptPlugin", "NSETesting", .product(name: "Crypto", package: "swift-crypto")],
            exclude: ["Vectors"]  // read from the source tree; see Vectors/make-vectors.py
        ),
        .testTarget(name: "RewritePluginTests", dependencies: ["RewritePlugin", "NSETesting"]),
        .testTarget(
            name: "MediaPluginTests",
            dependencies: ["MediaPlugin", "NSECore", "NSECurl", "NSEMagic", "NSEPlugins", "NSECommand", "NSETesting"]
        ),
        .testTarget(name: "NSECommandTests", dependencies: ["NSECommand", "NSETesting", "NSECore", "NSEPlugins"]),
    ]
)
