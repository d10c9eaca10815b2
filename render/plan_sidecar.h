/*
 * plan_sidecar.h — Dynamo sidecars in the launch plan: the supervisor
 * script that runs a native engine and its sidecar together and stops both
 * when either exits (srtctl's backends/sidecar.py), and which processes of
 * an SGLang worker run one (backends/sglang.py, c285a29).
 */
#ifndef SRT_PLAN_SIDECAR_H
#define SRT_PLAN_SIDECAR_H

#include "lib/util.h"
#include "model/recipe.h"

/* Whether the job's workers run with sidecars: dynamo.sidecar, or
 * roles.<role>.sidecar on every role; -1 when only some roles ask (not
 * rendered). */
int sidecar_mode(const struct recipe *r);

/* The gRPC port of process number ordinal (0 for the first process of the
 * job): dynamo.sidecar_port (50051) onwards, one per process. */
int sidecar_grpc_port(const struct recipe *r, int ordinal);

/* Whether a follower (node_rank > 0) of an SGLang worker of role runs a
 * KV-event relay sidecar: its node holds a scheduler rank that publishes
 * (srtctl's needs_telemetry_sidecar / _node_has_kv_publisher). nnodes is
 * the worker's node count. */
int sidecar_sglang_relay(const struct role *ro, int nnodes, int node_rank);

/* argv = bash -lc <script> running engine, then, once its gRPC port takes
 * connections, sidecar (both shlex-joined into the script). */
void sidecar_launch_argv(const struct recipe *r, const struct strvec *engine,
			 const struct strvec *sidecar, int grpc_port, const char *engine_name,
			 struct strvec *argv);

#endif
