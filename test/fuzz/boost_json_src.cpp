// Boost.JSON compiled into the fuzz targets from its sources (rather than linked from the
// Debian library) so its parser is instrumented for coverage and sanitizers too.
#include <boost/json/src.hpp>
