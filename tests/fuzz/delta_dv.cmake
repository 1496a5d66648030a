# SPDX-License-Identifier: Apache-2.0
dl_add_fuzz_target(delta_dv DEPS dl_delta PkgConfig::DL_ZLIB)
