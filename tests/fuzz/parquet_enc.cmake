# SPDX-License-Identifier: Apache-2.0
# Fuzz targets for the Parquet page encodings and codecs.
foreach(t pq_page_rle pq_page_delta pq_page_plain pq_page_codec)
  dl_add_fuzz_target(${t} DEPS dl_parquet)
endforeach()
