import Foundation

/// The wrk Lua script for the transaction-post benchmark and the file of requests it reads: one line per
/// request, `path<TAB>body`. Each wrk thread takes every n-th line (n = threads) so no transaction is
/// posted twice until a thread runs out and starts over.
enum PostScript {
    static let lua = """
        local counter = 0
        function setup(thread)
            thread:set("id", counter)
            counter = counter + 1
        end

        function init(args)
            local threads = tonumber(args[2])
            requests = {}
            local line_number = 0
            for line in io.lines(args[1]) do
                if line_number % threads == id then
                    local tab = line:find("\\t", 1, true)
                    requests[#requests + 1] = wrk.format("POST", line:sub(1, tab - 1), nil, line:sub(tab + 1))
                end
                line_number = line_number + 1
            end
            position = 0
        end

        function request()
            position = position + 1
            if position > #requests then position = 1 end
            return requests[position]
        end

        """

    /// Writes the script and the request lines into `folder`; returns the script's URL and the lines file's.
    static func write(lines: [String], folder: URL) throws -> (script: URL, requests: URL) {
        let script = folder.appendingPathComponent("post.lua")
        let requests = folder.appendingPathComponent("posts.txt")
        try lua.write(to: script, atomically: true, encoding: .utf8)
        try lines.joined(separator: "\n").appending("\n").write(to: requests, atomically: true, encoding: .utf8)
        return (script, requests)
    }
}
