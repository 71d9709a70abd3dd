/*
 * datapath.c - the catalog search path (see datapath.h for the order).
 */
#include "datapath.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef TC_DATADIR
#define TC_DATADIR "/usr/local/share/traincost"
#endif

/* Append one root; silently skips empty names and duplicates. */
static int dp_add(struct tc_datapath *dp, const char *dir, size_t len,
		  struct tc_diag *d)
{
	if (len == 0)
		return 0;
	if (len >= DP_PATH_LEN)
		return tc_diag_msg(d, TC_EXIT_USAGE,
				   "data folder name is %zu bytes long (expected at most %d)",
				   len, DP_PATH_LEN - 1);
	for (int i = 0; i < dp->count; i++)
		if (strlen(dp->dir[i]) == len && !memcmp(dp->dir[i], dir, len))
			return 0;
	if (dp->count == DP_MAX_DIRS)
		return tc_diag_msg(d, TC_EXIT_USAGE,
				   "too many data folders (expected at most %d)",
				   DP_MAX_DIRS);
	memcpy(dp->dir[dp->count], dir, len);
	dp->dir[dp->count][len] = '\0';
	dp->count++;
	return 0;
}

/* True if `root` holds a models/ folder. */
static int has_models(const char *root)
{
	char path[DP_PATH_LEN + 16];
	struct stat st;
	int n = snprintf(path, sizeof(path), "%s/models", root);
	return n > 0 && (size_t)n < sizeof(path) && stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The data roots beside a binary in `self_dir`: the folder itself, its
 * parent and the parent's share/traincost.  Returns how many (0 to 3). */
static int beside_roots(const char *self_dir, char root[3][DP_PATH_LEN])
{
	size_t len = strlen(self_dir);
	if (len == 0 || len >= DP_PATH_LEN)
		return 0;
	char parent[DP_PATH_LEN];
	memcpy(root[0], self_dir, len + 1);
	const char *slash = strrchr(self_dir, '/');
	if (slash)
		snprintf(parent, sizeof(parent), "%.*s", (int)(slash == self_dir ? 1 : slash - self_dir),
			 self_dir);
	else
		snprintf(parent, sizeof(parent), ".");
	memcpy(root[1], parent, sizeof(parent));
	int n = snprintf(root[2], DP_PATH_LEN, "%s%sshare/traincost", parent,
			 strcmp(parent, "/") ? "/" : "");
	return n < 0 || n >= DP_PATH_LEN ? 2 : 3;
}

/* Add the roots beside a binary in `self_dir` that hold models/. */
static int dp_add_beside(struct tc_datapath *dp, const char *self_dir, struct tc_diag *d)
{
	char root[3][DP_PATH_LEN];
	int n = beside_roots(self_dir, root);
	for (int i = 0; i < n; i++)
		if (has_models(root[i]) && dp_add(dp, root[i], strlen(root[i]), d))
			return -1;
	return 0;
}

/* The folder of the running binary into out; -1 where the system does not
 * say (no /proc). */
static int self_dir(char *out, size_t outlen)
{
	ssize_t n = readlink("/proc/self/exe", out, outlen - 1);
	if (n <= 0 || (size_t)n >= outlen - 1)
		return -1;
	out[n] = '\0';
	char *slash = strrchr(out, '/');
	if (!slash)
		return -1;
	slash[slash == out] = '\0';
	return 0;
}

int dp_init(struct tc_datapath *dp, const char *const *explicit_dirs, int n,
	    struct tc_diag *d)
{
	char self[DP_PATH_LEN];
	return dp_init_self(dp, explicit_dirs, n, self_dir(self, sizeof(self)) ? NULL : self, d);
}

int dp_init_self(struct tc_datapath *dp, const char *const *explicit_dirs, int n,
		 const char *self, struct tc_diag *d)
{
	memset(dp, 0, sizeof(*dp));
	for (int i = 0; i < n; i++) {
		/* A folder named on the command line must exist: a typo would
		 * otherwise fall back silently to the other roots. */
		struct stat st;
		if (stat(explicit_dirs[i], &st) != 0)
			return tc_diag_msg(d, TC_EXIT_USAGE,
					   "--data '%s' is not a folder: %s (expected a folder holding models/ and pricing/)",
					   explicit_dirs[i], strerror(errno));
		if (!S_ISDIR(st.st_mode))
			return tc_diag_msg(d, TC_EXIT_USAGE,
					   "--data '%s' is not a folder (expected a folder holding models/ and pricing/)",
					   explicit_dirs[i]);
		if (dp_add(dp, explicit_dirs[i], strlen(explicit_dirs[i]), d))
			return -1;
	}
	const char *env = getenv("TRAINCOST_PATH");
	while (env && *env) {
		const char *colon = strchr(env, ':');
		size_t len = colon ? (size_t)(colon - env) : strlen(env);
		if (dp_add(dp, env, len, d))
			return -1;
		env = colon ? colon + 1 : NULL;
	}
	const char *only = getenv("TRAINCOST_PATH_ONLY");
	if (only && *only && strcmp(only, "0") && strcmp(only, "1"))
		return tc_diag_msg(d, TC_EXIT_USAGE,
				   "TRAINCOST_PATH_ONLY '%s' is not valid (expected 0 or 1)", only);
	if (only && !strcmp(only, "1"))
		return 0;
	if (dp_add(dp, ".", 1, d))
		return -1;
	if (self && strlen(self) < sizeof(dp->self))
		memcpy(dp->self, self, strlen(self) + 1);
	if (self && dp_add_beside(dp, self, d))
		return -1;
	return dp_add(dp, TC_DATADIR, strlen(TC_DATADIR), d);
}

/*
 * Join root/sub[/name] into out; -1 if it does not fit.  Paths are shown to
 * users, and "models/gpu/x.yaml" reads better than "./models/gpu/x.yaml".
 */
static int dp_join(char *out, size_t outlen, const char *root, const char *sub,
		   const char *name)
{
	int here = !strcmp(root, ".");
	int n = snprintf(out, outlen, "%s%s%s%s%s", here ? "" : root,
			 here ? "" : "/", sub, name ? "/" : "", name ? name : "");
	return (n < 0 || (size_t)n >= outlen) ? -1 : 0;
}

int dp_find(const struct tc_datapath *dp, const char *sub, const char *name,
	    char *out, size_t outlen)
{
	struct stat st;
	for (int i = 0; i < dp->count; i++) {
		if (dp_join(out, outlen, dp->dir[i], sub, name) == 0 &&
		    stat(out, &st) == 0 && S_ISREG(st.st_mode))
			return 0;
	}
	return -1;
}

int dp_find_dir(const struct tc_datapath *dp, const char *const *subs, char *out,
		size_t outlen)
{
	struct stat st;
	for (int i = 0; i < dp->count; i++)
		for (int k = 0; subs[k]; k++)
			if (dp_join(out, outlen, dp->dir[i], subs[k], NULL) == 0 &&
			    stat(out, &st) == 0 && S_ISDIR(st.st_mode))
				return 0;
	return -1;
}

static int has_yaml_suffix(const char *name)
{
	size_t n = strlen(name);
	return n > 5 && !strcmp(name + n - 5, ".yaml") && name[0] != '.';
}

static int cmp_base(const void *a, const void *b)
{
	const char *pa = *(const char *const *)a, *pb = *(const char *const *)b;
	const char *ba = strrchr(pa, '/'), *bb = strrchr(pb, '/');
	return strcmp(ba ? ba + 1 : pa, bb ? bb + 1 : pb);
}

/* True if a file named `base` is already listed (an earlier root wins). */
static int listed(char **paths, size_t count, const char *base)
{
	for (size_t i = 0; i < count; i++) {
		const char *b = strrchr(paths[i], '/');
		if (!strcmp(b ? b + 1 : paths[i], base))
			return 1;
	}
	return 0;
}

int dp_list(const struct tc_datapath *dp, const char *sub, char ***paths,
	    size_t *count)
{
	char **list = NULL;
	size_t n = 0, cap = 0;
	int rc = -1;

	for (int i = 0; i < dp->count; i++) {
		char dir[DP_PATH_LEN + 64];
		if (dp_join(dir, sizeof(dir), dp->dir[i], sub, NULL))
			continue;
		DIR *dh = opendir(dir);
		if (!dh)
			continue;
		struct dirent *e;
		while ((e = readdir(dh)) != NULL) {
			if (!has_yaml_suffix(e->d_name) || listed(list, n, e->d_name))
				continue;
			if (n == cap) {
				size_t ncap = cap ? cap * 2 : 32;
				char **nl = realloc(list, ncap * sizeof(*nl));
				if (!nl) {
					closedir(dh);
					goto out;
				}
				list = nl;
				cap = ncap;
			}
			size_t len = strlen(dir) + 1 + strlen(e->d_name) + 1;
			list[n] = malloc(len);
			if (!list[n]) {
				closedir(dh);
				goto out;
			}
			snprintf(list[n], len, "%s/%s", dir, e->d_name);
			n++;
		}
		closedir(dh);
	}
	if (n > 1)
		qsort(list, n, sizeof(*list), cmp_base);
	*paths = list;
	*count = n;
	list = NULL;
	n = 0;
	rc = 0;
out:
	dp_list_free(list, n);
	return rc;
}

void dp_list_free(char **paths, size_t count)
{
	for (size_t i = 0; i < count; i++)
		free(paths[i]);
	free(paths);
}

/* True if `root` holds `sub` as a folder. */
static int has_dir(const char *root, const char *sub)
{
	char path[DP_PATH_LEN + 16];
	struct stat st;
	int n = snprintf(path, sizeof(path), "%s/%s", root, sub);
	return n > 0 && (size_t)n < sizeof(path) && stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int dp_has_data(const struct tc_datapath *dp)
{
	for (int i = 0; i < dp->count; i++)
		if (has_dir(dp->dir[i], "models") || has_dir(dp->dir[i], "pricing"))
			return 1;
	return 0;
}

/* Append `s` to buf (size len, *used bytes so far), cut with "...". */
static void put(char *buf, size_t len, size_t *used, const char *s)
{
	int n = snprintf(buf + *used, len - *used, "%s", s);
	if (n < 0 || (size_t)n >= len - *used) {
		*used = len - 1;
		if (len >= 4)
			memcpy(buf + len - 4, "...", 4);
		return;
	}
	*used += (size_t)n;
}

void dp_searched(const struct tc_datapath *dp, char *buf, size_t len)
{
	char root[3][DP_PATH_LEN];
	size_t used = 0;
	if (!len)
		return;
	buf[0] = '\0';
	for (int i = 0; i < dp->count; i++) {
		put(buf, len, &used, i ? ", " : "");
		put(buf, len, &used, dp->dir[i]);
	}
	/* Beside the binary: the folders without models/ were not roots. */
	int nb = dp->self[0] ? beside_roots(dp->self, root) : 0;
	for (int i = 0; i < nb; i++) {
		put(buf, len, &used, i ? ", " : dp->count ? "; beside the binary " : "beside the binary ");
		put(buf, len, &used, root[i]);
	}
	if (!dp->count && !nb)
		put(buf, len, &used, "no folder");
}
