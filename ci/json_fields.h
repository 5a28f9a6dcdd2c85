/* json_fields.h - typed reading of one member of a replay line (json-c). NULL/false when absent or mistyped.
 */
#ifndef CI_JSON_FIELDS_H
#define CI_JSON_FIELDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct json_object;

struct json_object *jf_member(struct json_object *o, const char *key);
/* A string member, with its length (it may hold NUL bytes). */
const char *jf_string(struct json_object *o, const char *key, size_t *len);
bool jf_int(struct json_object *o, const char *key, int64_t *out);
bool jf_uint(struct json_object *o, const char *key, uint64_t *out); /* non-negative, up to 2^64-1 */
bool jf_bool(struct json_object *o, const char *key, bool *out);
/* An array member and its length. */
struct json_object *jf_array(struct json_object *o, const char *key, size_t *len);

#endif
