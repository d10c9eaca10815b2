/* The pure half of the services editor: readiness text and the
 * lmcache-server command prefix, both from the kinds table. */
#include <stdlib.h>
#include <string.h>

#include "model/kinds.h"
#include "lib/util.h"
#include "tui/widget_services.h"

enum ready_kind ready_kind_of(const json_t *r)
{
	if (!json_is_object(r))
		return READY_DEFAULT;
	if (json_object_get(r, "http"))
		return READY_HTTP;
	if (json_object_get(r, "log"))
		return READY_LOG;
	if (json_object_get(r, "tcp") || json_object_get(r, "port"))
		return READY_TCP;
	return READY_DEFAULT;
}

char *ready_summary(const json_t *r, const char *type)
{
	const json_t *v;
	const struct svc_kind *k = svc_kind_find(type ? type : KIND_NAME(KIND_GENERIC));

	switch (ready_kind_of(r)) {
	case READY_TCP:
		v = json_object_get(r, "port");
		if (!v)
			v = json_object_get(json_object_get(r, "tcp"), "port");
		return xasprintf("tcp/%lld", (long long)json_integer_value(v));
	case READY_HTTP: {
		const json_t *h = json_object_get(r, "http");
		const char *p = json_string_value(json_object_get(h, "path"));
		v = json_object_get(h, "status");
		return xasprintf("http :%lld%s -> %lld",
				 (long long)json_integer_value(json_object_get(h, "port")),
				 p ? p : "/health", json_is_integer(v) ? (long long)json_integer_value(v) : 200LL);
	}
	case READY_LOG: {
		const char *p = json_string_value(json_object_get(json_object_get(r, "log"), "pattern"));
		return xasprintf("log /%s/", p ? p : "");
	}
	case READY_DEFAULT:
		break;
	}
	if (k && k->ready_http_port)
		return xasprintf("kind default (http :%d%s)", k->ready_http_port,
				 k->ready_http_path ? k->ready_http_path : "");
	if (k && k->ready_ports && k->ready_ports[0])
		return xasprintf("kind default (tcp/%d)", k->ready_ports[0]);
	return xstrdup("none (started = ready)");
}

char *lmc_prefix_text(void)
{
	struct strbuf sb = STRBUF_INIT;
	const char *const *c = svc_kinds[KIND_LMCACHE_SERVER].command;

	for (size_t i = 0; c[i]; i++)
		strbuf_addf(&sb, "%s%s", i ? " " : "", c[i]);
	return strbuf_detach(&sb, NULL);
}
