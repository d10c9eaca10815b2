/*
 * engine_yaml.h — the engine config file srtctl writes for a TRT-LLM role:
 * the role's args (plus srtctl's engine defaults) dumped as PyYAML's
 * safe_dump prints them (keys sorted, block style), so the preview shows the
 * file the worker reads.  Pure function; the caller owns the buffer.
 */
#ifndef SRT_ENGINE_YAML_H
#define SRT_ENGINE_YAML_H

#include <jansson.h>

#include "lib/util.h"

/* The config of one role: args with srtctl's defaults under them
 * (enable_iter_perf_stats: false unless args set it).  New reference. */
json_t *engine_yaml_config(json_t *args);

/* The same with the other defaults srtctl bakes into a TRT-LLM role's args at
 * load: observability.enabled turns on enable_iter_perf_stats and
 * return_perf_metrics, frontend.type trtllm_serve return_perf_metrics (each
 * only where args leave it unset).  New reference. */
enum { ENGINE_YAML_OBSERVABILITY = 1, ENGINE_YAML_TRTLLM_SERVE = 2 };
json_t *engine_yaml_config_with(json_t *args, unsigned with);
/* Which of those a recipe turns on. */
struct recipe;
unsigned engine_yaml_defaults(const struct recipe *r);

/* v as yaml.safe_dump(v) writes it, each line prefixed with indent. */
void engine_yaml_dump(struct strbuf *out, json_t *v, const char *indent);
/* The same with sort_keys=False: mappings in the order they were read. */
void yaml_dump_unsorted(struct strbuf *out, json_t *v, const char *indent);

#endif
