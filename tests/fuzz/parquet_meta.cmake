# SPDX-License-Identifier: Apache-2.0
# Thrift compact protocol / Parquet metadata fuzz targets.
dl_add_fuzz_target(tc_filemetadata DEPS dl_parquet)
dl_add_fuzz_target(tc_pageheader DEPS dl_parquet)
