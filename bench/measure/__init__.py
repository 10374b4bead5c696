# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The benchmark's measurement (bench/run.py runs it): what it measures
(common), where timed processes run (lanes), the kernels' builds, counts
and times (kernels), and compile time (compile). It writes numbers only;
bench/report.py renders them."""
