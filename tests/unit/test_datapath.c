/*
 * test_datapath.c - the catalog search path: explicit folders, then
 * $TRAINCOST_PATH, the current folder, the folders beside the binary, and
 * the installed share folder last.  Run from the repository root; the
 * fixture trees are under tests/unit/data/datapath.
 */
#include "tc_test.h"

#include <stdlib.h>

#include "../../src/io/datapath.h"

#define TREE "tests/unit/data/datapath/tree"
#define INST "tests/unit/data/datapath/inst"

/* The index of root `dir` in the path, or -1. */
static int root_index(const struct tc_datapath *dp, const char *dir)
{
	for (int i = 0; i < dp->count; i++)
		if (!strcmp(dp->dir[i], dir))
			return i;
	return -1;
}

/* A binary built in TREE/build finds TREE's models/, after "." and before
 * the installed folder. */
static void test_beside_build(void **state)
{
	struct tc_datapath dp;
	struct tc_diag d;
	char path[DP_PATH_LEN + 64];
	(void)state;

	unsetenv("TRAINCOST_PATH");
	tc_diag_init(&d);
	assert_int_equal(dp_init_self(&dp, NULL, 0, TREE "/build", &d), 0);
	int here = root_index(&dp, ".");
	int tree = root_index(&dp, TREE);
	assert_true(here >= 0 && tree > here);
	assert_int_equal(tree, dp.count - 2); /* the installed folder comes last */
	/* The binary's own folder holds no models/: not searched. */
	assert_int_equal(root_index(&dp, TREE "/build"), -1);
	assert_int_equal(dp_find(&dp, "models/gpu", "zz-beside.yaml", path, sizeof(path)), 0);
	assert_string_equal(path, TREE "/models/gpu/zz-beside.yaml");
	assert_int_equal(dp_find(&dp, "models/gpu", "zz-installed.yaml", path, sizeof(path)), -1);
}

/* An installed binary PREFIX/bin/traincost finds PREFIX/share/traincost,
 * wherever PREFIX was moved to. */
static void test_beside_install(void **state)
{
	struct tc_datapath dp;
	struct tc_diag d;
	char path[DP_PATH_LEN + 64];
	static const char *const subs[] = { "tests/validation", "validation", NULL };
	(void)state;

	unsetenv("TRAINCOST_PATH");
	tc_diag_init(&d);
	assert_int_equal(dp_init_self(&dp, NULL, 0, INST "/bin", &d), 0);
	assert_true(root_index(&dp, INST "/share/traincost") > root_index(&dp, "."));
	assert_int_equal(dp_find(&dp, "models/gpu", "zz-installed.yaml", path, sizeof(path)), 0);
	assert_string_equal(path, INST "/share/traincost/models/gpu/zz-installed.yaml");
	/* Validation cases: the working tree's first, then the installed ones. */
	assert_int_equal(dp_find_dir(&dp, subs, path, sizeof(path)), 0);
	assert_string_equal(path, "tests/validation");
	const char *only[] = { TREE, NULL };
	assert_int_equal(dp_init_self(&dp, only, 1, INST "/bin", &d), 0);
	assert_int_equal(dp_find_dir(&dp, subs, path, sizeof(path)), 0);
	assert_string_equal(path, TREE "/tests/validation");
}

/* $TRAINCOST_PATH comes before the current folder and the binary's. */
static void test_env_first(void **state)
{
	struct tc_datapath dp;
	struct tc_diag d;
	(void)state;

	setenv("TRAINCOST_PATH", INST "/share/traincost:" TREE, 1);
	tc_diag_init(&d);
	assert_int_equal(dp_init_self(&dp, NULL, 0, NULL, &d), 0);
	assert_int_equal(root_index(&dp, INST "/share/traincost"), 0);
	assert_int_equal(root_index(&dp, TREE), 1);
	assert_int_equal(root_index(&dp, "."), 2);
	unsetenv("TRAINCOST_PATH");
}

int main(void)
{
	/* These tests check the default search path: not the suite's frozen-data
	 * switch (tests/test-env.sh). */
	unsetenv("TRAINCOST_PATH_ONLY");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_beside_build),
		cmocka_unit_test(test_beside_install),
		cmocka_unit_test(test_env_first),
	};
	return cmocka_run_group_tests_name("datapath", tests, NULL, NULL);
}
