/*
 * plan_sglang_pub.c — see plan_sglang_pub.h.  srtctl's rules (5bb0467):
 * kv_events true is {"publisher": "zmq", "topic": "kv-events"}, a mapping
 * is written over those defaults (backends/base.py role_kv_events); the
 * process's own endpoint is set after, the replay listener replaces any
 * value of replay_endpoint, and an enabled load-publish-endpoint (anything
 * but off) becomes the allocated listener; the config is json.dumps'ed.
 */
#include "render/plan_sglang_pub.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/json.h"

json_t *sglang_kv_events(const struct role *ro)
{
	json_t *v = json_object_get(ro->cfg, "kv_events"), *o;
	if (!v || !json_is_true(v)) {
		if (!json_is_object(v) || !json_object_size(v))
			return NULL;
	}
	o = json_object();
	json_object_set_new(o, "publisher", json_string("zmq"));
	json_object_set_new(o, "topic", json_string("kv-events"));
	if (json_is_object(v))
		json_object_update(o, v);
	return o;
}

int sglang_kv_replay(const struct role *ro)
{
	json_t *kv = sglang_kv_events(ro), *rp;
	int on;
	if (!kv)
		return 0;
	rp = json_object_get(kv, "replay_endpoint");
	/* Python truthiness of the value */
	on = rp && !json_is_null(rp) && !json_is_false(rp) &&
	     !(json_is_string(rp) && !*json_string_value(rp)) &&
	     !(json_is_integer(rp) && !json_integer_value(rp));
	json_decref(kv);
	return on;
}

/* args[key] under either spelling. */
static json_t *arg(const struct role *ro, const char *dash, const char *under)
{
	json_t *v = json_object_get(ro->args, dash);
	return v ? v : json_object_get(ro->args, under);
}

int sglang_load_publishing(const struct role *ro)
{
	json_t *v = arg(ro, "load-publish-endpoint", "load_publish_endpoint");
	char *t, *b, *e;
	int on;
	/* bool(value) and str(value).strip().lower() != "off" */
	if (!v || json_is_null(v) || json_is_false(v) || (json_is_string(v) && !*json_string_value(v)) ||
	    (json_is_integer(v) && !json_integer_value(v)))
		return 0;
	t = py_str_dup(v);
	for (b = t; *b && strchr(" \t\n\r\f\v", *b); b++)
		;
	for (e = b + strlen(b); e > b && strchr(" \t\n\r\f\v", e[-1]); e--)
		;
	on = !((size_t)(e - b) == 3 && !strncasecmp(b, "off", 3));
	free(t);
	return on;
}

int sglang_publisher_count(const struct role *ro)
{
	json_t *dp = arg(ro, "dp-size", "data-parallel-size");
	json_t *adp = arg(ro, "attn-dp-size", "attention-data-parallel-size");
	long a = json_is_integer(dp) ? (long)json_integer_value(dp) : 1;
	long b = json_is_integer(adp) ? (long)json_integer_value(adp) : 1;
	return (int)(a * b);
}

void sglang_publisher_args(const struct role *ro, int kv_port, int replay_port, int load_port,
			   struct strvec *argv)
{
	json_t *kv = sglang_kv_events(ro);
	char buf[48];
	if (!kv)
		return;
	snprintf(buf, sizeof(buf), "tcp://*:%d", kv_port);
	json_object_set_new(kv, "endpoint", json_string(buf));
	if (sglang_kv_replay(ro)) {
		snprintf(buf, sizeof(buf), "tcp://*:%d", replay_port);
		json_object_set_new(kv, "replay_endpoint", json_string(buf));
	}
	strvec_push(argv, "--kv-events-config");
	strvec_push_nodup(argv, pyjson_dumps(kv, 0));
	json_decref(kv);
	if (sglang_load_publishing(ro)) {
		strvec_push(argv, "--load-publish-endpoint");
		strvec_pushf(argv, "tcp://*:%d", load_port);
	}
}
