/* json_fields.c - typed access to members of replay lines (json_fields.h). */
#include "ci/json_fields.h"

#include <json-c/json.h>

struct json_object *jf_member(struct json_object *o, const char *key)
{
    struct json_object *v;
    if (!o || !json_object_is_type(o, json_type_object) || !json_object_object_get_ex(o, key, &v))
        return NULL;
    return v;
}

const char *jf_string(struct json_object *o, const char *key, size_t *len)
{
    struct json_object *v = jf_member(o, key);
    if (!v || !json_object_is_type(v, json_type_string))
        return NULL;
    if (len)
        *len = (size_t)json_object_get_string_len(v);
    return json_object_get_string(v);
}

bool jf_int(struct json_object *o, const char *key, int64_t *out)
{
    struct json_object *v = jf_member(o, key);
    if (!v || !json_object_is_type(v, json_type_int))
        return false;
    *out = json_object_get_int64(v);
    return true;
}

bool jf_uint(struct json_object *o, const char *key, uint64_t *out)
{
    struct json_object *v = jf_member(o, key);
    if (!v || !json_object_is_type(v, json_type_int) || json_object_get_int64(v) < 0)
        return false;
    *out = json_object_get_uint64(v);
    return true;
}

bool jf_bool(struct json_object *o, const char *key, bool *out)
{
    struct json_object *v = jf_member(o, key);
    if (!v || !json_object_is_type(v, json_type_boolean))
        return false;
    *out = json_object_get_boolean(v);
    return true;
}

struct json_object *jf_array(struct json_object *o, const char *key, size_t *len)
{
    struct json_object *v = jf_member(o, key);
    if (!v || !json_object_is_type(v, json_type_array))
        return NULL;
    *len = json_object_array_length(v);
    return v;
}
