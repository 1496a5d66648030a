# SPDX-License-Identifier: Apache-2.0
# Thrift compact protocol / Parquet metadata fuzz targets. They link the library chosen in
# tests/unit/parquet/meta.cmake (the metadata sources on their own, with dl_base).
get_property(dl_pq_meta_lib GLOBAL PROPERTY DL_PQ_META_LIB)
if(dl_pq_meta_lib)
  dl_add_fuzz_target(tc_filemetadata DEPS ${dl_pq_meta_lib})
  dl_add_fuzz_target(tc_pageheader DEPS ${dl_pq_meta_lib})
endif()
