/*
 * svckind.h — the service kinds srtctl knows (spec §4.2) as one table:
 * default command, start phase, criticality, placement, readiness, container
 * fallback, wrapper, and which options they understand.  Static data; nothing
 * to free.
 */
#ifndef SRT_SVCKIND_H
#define SRT_SVCKIND_H

#include <stddef.h>

struct svc_kind {
	const char *type;
	const char *const *command;  /* default argv, NULL-terminated; NULL = required */
	const char *start;           /* infra, before_workers, after_frontend */
	int critical;
	const char *placement;       /* default placement.node */
	int per_worker;              /* default placement.per is worker */
	const int *ready_ports;      /* default_readiness_ports, 0-terminated; NULL none */
	const char *container;       /* kind fallback image, NULL = job container */
	int bash_wrapper;            /* env exported in a bash wrapper (else srun_export_env) */
	const char *preamble;        /* kind preamble or NULL */
	int discovery;               /* etcd / nats / mooncake-master: `external` allowed */
	int infra_class;             /* placement.node: dedicated allowed */
	const char *const *options;  /* option keys understood, NULL-terminated; NULL none */
	const char *help;            /* one line for the wizard */
	/* The kind's own per-instance readiness hook (lmcache-server: GET
	 * /healthcheck on 8751).  srtctl's dry-run and its port-clash check do
	 * not see it; only the launch does.  http_port 0 = none. */
	int ready_http_port;
	const char *ready_http_path;
	int ready_timeout;           /* seconds, for the kind's probes */
	int ready_interval;
};

extern const struct svc_kind svc_kinds[];
extern const size_t svc_kinds_count;

const struct svc_kind *svc_kind_find(const char *type);
/* "dcgm-exporter, etcd, ..." sorted, as srtctl lists them in errors; static. */
const char *svc_kind_known_list(void);

#endif
