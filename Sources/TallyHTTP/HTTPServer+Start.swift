import CMicroHTTPD

extension HTTPServer {
    /// Starts libmicrohttpd's daemon with the configuration's options; nil when it refuses.
    static func startDaemon(configuration: Configuration, address: ListenAddress.Socket, context: ServerContext)
        -> OpaquePointer?
    {
        var flags = MHD_is_feature_supported(.FEATURE_EPOLL) == .YES
            ? MHD_USE_EPOLL_INTERNAL_THREAD.rawValue : MHD_USE_AUTO_INTERNAL_THREAD.rawValue
        // An inter-thread channel, which MHD_quiesce_daemon needs for a graceful stop.
        flags |= MHD_USE_ITC.rawValue
        if configuration.blockingRequests != nil {
            flags |= MHD_ALLOW_SUSPEND_RESUME.rawValue
        }
        if address.isIPv6 {
            flags |= MHD_USE_IPv6.rawValue
        }
        let access: MHD_AccessHandlerCallback = accessHandlerCallback
        let completed: MHD_RequestCompletedCallback = requestCompletedCallback
        let notify: MHD_NotifyConnectionCallback = connectionNotifyCallback
        let unescape: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<CChar>?) -> Int =
            keepEscapedCallback
        return address.withSocketAddress { socketAddress, _ in
            var options: [MHD_OptionItem] = [
                MHD_OptionItem(option: .CONNECTION_MEMORY_LIMIT, value: configuration.memoryLimitPerConnection,
                               ptr_value: nil),
                MHD_OptionItem(option: .CONNECTION_LIMIT, value: configuration.connectionLimit, ptr_value: nil),
                MHD_OptionItem(option: .CONNECTION_TIMEOUT, value: configuration.connectionTimeoutSeconds,
                               ptr_value: nil),
                // Options taking two pointers carry the first in `value`, the second in `ptr_value`.
                MHD_OptionItem(option: .NOTIFY_COMPLETED, value: functionAddress(completed),
                               ptr_value: Unmanaged.passUnretained(context).toOpaque()),
                // The per-network connection limit and the head deadline (``ConnectionWatch``), in place of
                // libmicrohttpd's per-IP limit, which counts each IPv6 address apart.
                MHD_OptionItem(option: .NOTIFY_CONNECTION, value: functionAddress(notify),
                               ptr_value: Unmanaged.passUnretained(context).toOpaque()),
                MHD_OptionItem(option: .UNESCAPE_CALLBACK, value: functionAddress(unescape), ptr_value: nil),
                MHD_OptionItem(option: .SOCK_ADDR, value: 0, ptr_value: UnsafeMutableRawPointer(mutating: socketAddress)),
            ]
            if tally_mhd_sets_client_strictness() != 0 {
                options.append(MHD_OptionItem(option: .STRICT_FOR_CLIENT, value: -1, ptr_value: nil))
            }
            if configuration.threads > 1 {
                options.append(MHD_OptionItem(option: .THREAD_POOL_SIZE, value: configuration.threads, ptr_value: nil))
            }
            options.append(MHD_OptionItem(option: .END, value: 0, ptr_value: nil))
            return options.withUnsafeMutableBufferPointer { items in
                tally_mhd_start(
                    flags, configuration.port, access, Unmanaged.passUnretained(context).toOpaque(), items.baseAddress)
            }
        }
    }
}

/// The address of a C function, as libmicrohttpd's option array wants it (`intptr_t`).
private func functionAddress<Function>(_ function: Function) -> Int {
    unsafeBitCast(function, to: Int.self)
}
