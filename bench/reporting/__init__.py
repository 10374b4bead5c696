# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The benchmark's report (bench/report.py runs it), from the measurements'
JSON alone: the targets met or missed (targets), the tables (tables) and
the plot (plot)."""
