# SPDX-License-Identifier: Apache-2.0
dl_add_fuzz_target(fmt_csv DEPS dl_formats)
dl_add_fuzz_target(fmt_json DEPS dl_formats)
