import Foundation

/// nginx serving one static file (the same bytes as Tally's GET answer) from a temporary configuration:
/// the peer for the GET benchmark.
final class NginxPeer {
    let process = Process()
    let port: UInt16

    /// Writes `body` to `<folder>/www/<path>` and a `nginx.conf` that serves it on a free loopback port,
    /// then starts `nginx` in the foreground and waits until it answers.
    init(nginx: URL, folder: URL, path: String, body: Data) throws {
        let www = folder.appendingPathComponent("www")
        let file = www.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(),
                                                withIntermediateDirectories: true)
        try body.write(to: file)
        port = try BenchTools.freePort()
        let config = folder.appendingPathComponent("nginx.conf")
        try Self.configuration(folder: folder, www: www, port: port).write(to: config, atomically: true,
                                                                          encoding: .utf8)
        process.executableURL = nginx
        process.arguments = ["-c", config.path, "-p", folder.path, "-e", folder.appendingPathComponent("error.log").path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try BenchTools.emptyFile(folder.appendingPathComponent("nginx.err"))
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if (try? BenchHTTP.get("http://127.0.0.1:\(port)/\(path)")) == body { return }
            guard process.isRunning else {
                let log = (try? String(contentsOf: folder.appendingPathComponent("nginx.err"), encoding: .utf8)) ?? ""
                throw BenchError("nginx exited \(process.terminationStatus): \(log)")
            }
            usleep(50_000)
        }
        stop()
        throw BenchError("nginx did not serve \(path) on port \(port) within 30 s")
    }

    deinit {
        stop()
    }

    /// Stops nginx (SIGTERM: fast shutdown) and waits for it.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    private static func configuration(folder: URL, www: URL, port: UInt16) -> String {
        let temp = folder.appendingPathComponent("nginx-temp").path
        return """
            daemon off;
            worker_processes auto;
            pid \(folder.appendingPathComponent("nginx.pid").path);
            error_log \(folder.appendingPathComponent("error.log").path) warn;
            events { worker_connections 1024; }
            http {
                access_log off;
                client_body_temp_path \(temp);
                default_type application/json;
                keepalive_requests 1000000;
                server {
                    listen 127.0.0.1:\(port);
                    root \(www.path);
                    location / { }
                }
            }

            """
    }
}
