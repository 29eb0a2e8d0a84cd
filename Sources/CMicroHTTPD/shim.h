#ifndef TALLY_CMICROHTTPD_SHIM_H
#define TALLY_CMICROHTTPD_SHIM_H

#include <stdint.h>
#include <stdarg.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

/// MHD_start_daemon is variadic, which Swift cannot call: this fixed-argument wrapper passes every option
/// through one MHD_OPTION_ARRAY (terminated by an MHD_OPTION_END item).
static inline struct MHD_Daemon *tally_mhd_start(unsigned int flags, uint16_t port,
                                                 MHD_AccessHandlerCallback handler, void *handler_context,
                                                 struct MHD_OptionItem *options) {
    return MHD_start_daemon(flags, port, NULL, NULL, handler, handler_context,
                            MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/// MHD_get_daemon_info is variadic too: the port the daemon's listening socket is bound to (0 when unknown).
static inline uint16_t tally_mhd_bind_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/// MHD_get_connection_info is variadic too: the client's address on `connection` (NULL when unknown).
static inline const struct sockaddr *tally_mhd_client_address(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}

/// MHD_get_connection_info is variadic too: the socket of `connection` (-1 when unknown).
static inline int tally_mhd_connection_socket(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

/// MHD_get_connection_info is variadic too: the pointer the connection-notify callback stored for `connection`.
static inline void *tally_mhd_socket_context(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : info->socket_context;
}

/// Whether to pass MHD_OPTION_STRICT_FOR_CLIENT -1: in libmicrohttpd 0.9.75 that value refuses whitespace between a
/// header name and its colon (`Transfer-Encoding : chunked`, a request-smuggling vector) with one 400. Later
/// versions replaced the option with MHD_OPTION_CLIENT_DISCIPLINE_LVL, whose levels mean other things and were not
/// tested with Tally, so they keep their library default.
static inline int tally_mhd_sets_client_strictness(void) {
    return MHD_VERSION < 0x00097701;
}

#endif
