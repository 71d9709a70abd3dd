# Sourced by the test runners (tests/run-all.sh, tests/cli/run-cases.sh,
# tests/bad/run-bad.sh): what every test run sees, whatever the clock says.
#
# The date the suites take as today (src/cli/today.h).  The frozen price
# fixtures are dated 2026-09-20 to 2026-11-29: on this date none is stale
# (older than 180 days) and none is in the future.
TRAINCOST_TODAY=2026-12-01
export TRAINCOST_TODAY
unset SOURCE_DATE_EPOCH

# The data the suites see: the frozen copy under tests/data/, and nothing
# else (not ./models, ./pricing or an installed copy), so that refreshing the
# shipped data never changes an expected output.  tests/shipped-data.sh
# checks the shipped files themselves.
TRAINCOST_PATH=tests/data
TRAINCOST_PATH_ONLY=1
export TRAINCOST_PATH TRAINCOST_PATH_ONLY
