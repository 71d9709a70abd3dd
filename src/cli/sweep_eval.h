/*
 * sweep_eval.h - the worker threads of `traincost sweep`: each takes the
 * next chunk of rows, evaluates every configuration and formats its row
 * into a slot for the writer (the run's state: sweep_run.h).  Internal to
 * the sweep command.
 */
#ifndef TC_CLI_SWEEP_EVAL_H
#define TC_CLI_SWEEP_EVAL_H

#include "sweep_run.h"

/* The GPU entry of `id`, or NULL when not resolved up front. */
const struct gpu_entry *sweep_find_gpu(const struct run *R, const char *id);

/* A worker thread (arg: the struct run): evaluates chunks in order into
 * the slots until every chunk is taken or the run failed. */
void *sweep_worker_main(void *arg);

#endif
