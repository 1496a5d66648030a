# SPDX-License-Identifier: Apache-2.0
# The Parquet reader over whole files (fuzz_pq_file.c).
dl_add_fuzz_target(pq_file DEPS dl_parquet)
