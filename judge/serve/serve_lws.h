/*
 * serve_lws.h - libwebsockets, loaded when `judge serve` starts rather than when any
 * judge process does: linking it pulls libssl and libcrypto into every run, compile and
 * exec (about 1.3 ms of start-up, and larger page tables for each jail's fork). Include
 * this instead of <libwebsockets.h>; the calls keep their names.
 */
#ifndef JUDGE_SERVE_LWS_H
#define JUDGE_SERVE_LWS_H

#include <libwebsockets.h>
#include <stddef.h>

/* The functions serve_ws.c calls, each X(name). */
#define SERVE_LWS_FUNCTIONS(X)                                                                               \
    X(lws_add_http_common_headers)                                                                           \
    X(lws_add_http_header_by_name)                                                                           \
    X(lws_callback_http_dummy)                                                                               \
    X(lws_callback_on_writable)                                                                              \
    X(lws_close_reason)                                                                                      \
    X(lws_context_destroy)                                                                                   \
    X(lws_context_user)                                                                                      \
    X(lws_create_context)                                                                                    \
    X(lws_finalize_write_http_header)                                                                        \
    X(lws_frame_is_binary)                                                                                   \
    X(lws_get_context)                                                                                       \
    X(lws_get_vhost_by_name)                                                                                 \
    X(lws_get_vhost_listen_port)                                                                             \
    X(lws_hdr_copy)                                                                                          \
    X(lws_http_transaction_completed)                                                                        \
    X(lws_is_final_fragment)                                                                                 \
    X(lws_partial_buffered)                                                                                  \
    X(lws_remaining_packet_payload)                                                                          \
    X(lws_return_http_status)                                                                                \
    X(lws_serve_http_file)                                                                                   \
    X(lws_service)                                                                                           \
    X(lws_set_log_level)                                                                                     \
    X(lws_set_timeout)                                                                                       \
    X(lws_sul_cancel)                                                                                        \
    X(lws_sul_schedule)                                                                                      \
    X(lws_write)

#define SERVE_LWS_POINTER(name) __typeof__(name) *name##_fn;
struct serve_lws {
    SERVE_LWS_FUNCTIONS(SERVE_LWS_POINTER)
};
#undef SERVE_LWS_POINTER

extern struct serve_lws serve_lws;

/* 0 once the library and every function are there; -1 with why (the library's name and
 * dlerror) otherwise. Loaded once per process; later calls answer the first result. */
int serve_lws_load(char *why, size_t whylen);

#define lws_add_http_common_headers    (*serve_lws.lws_add_http_common_headers_fn)
#define lws_add_http_header_by_name    (*serve_lws.lws_add_http_header_by_name_fn)
#define lws_callback_http_dummy        (*serve_lws.lws_callback_http_dummy_fn)
#define lws_callback_on_writable       (*serve_lws.lws_callback_on_writable_fn)
#define lws_close_reason               (*serve_lws.lws_close_reason_fn)
#define lws_context_destroy            (*serve_lws.lws_context_destroy_fn)
#define lws_context_user               (*serve_lws.lws_context_user_fn)
#define lws_create_context             (*serve_lws.lws_create_context_fn)
#define lws_finalize_write_http_header (*serve_lws.lws_finalize_write_http_header_fn)
#define lws_frame_is_binary            (*serve_lws.lws_frame_is_binary_fn)
#define lws_get_context                (*serve_lws.lws_get_context_fn)
#define lws_get_vhost_by_name          (*serve_lws.lws_get_vhost_by_name_fn)
#define lws_get_vhost_listen_port      (*serve_lws.lws_get_vhost_listen_port_fn)
#define lws_hdr_copy                   (*serve_lws.lws_hdr_copy_fn)
#define lws_http_transaction_completed (*serve_lws.lws_http_transaction_completed_fn)
#define lws_is_final_fragment          (*serve_lws.lws_is_final_fragment_fn)
#define lws_partial_buffered           (*serve_lws.lws_partial_buffered_fn)
#define lws_remaining_packet_payload   (*serve_lws.lws_remaining_packet_payload_fn)
#define lws_return_http_status         (*serve_lws.lws_return_http_status_fn)
#define lws_serve_http_file            (*serve_lws.lws_serve_http_file_fn)
#define lws_service                    (*serve_lws.lws_service_fn)
#define lws_set_log_level              (*serve_lws.lws_set_log_level_fn)
#define lws_set_timeout                (*serve_lws.lws_set_timeout_fn)
#define lws_sul_cancel                 (*serve_lws.lws_sul_cancel_fn)
#define lws_sul_schedule               (*serve_lws.lws_sul_schedule_fn)
#define lws_write                      (*serve_lws.lws_write_fn)

#endif
