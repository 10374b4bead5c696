# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Reads `ccache --print-stats` (ccache 4.x: one "counter<TAB>value" a line;
# the counters' names differ between versions) and prints
# "hits H misses M": direct and preprocessed hits together.
import sys

counters = {}
for line in sys.stdin:
    name, _, value = line.strip().partition("\t")
    if value.isdigit():
        counters[name] = int(value)
hits = sum(counters.get(k, 0) for k in ("direct_cache_hit", "preprocessed_cache_hit"))
misses = counters.get("cache_miss", 0)
print("hits %d misses %d" % (hits, misses))
