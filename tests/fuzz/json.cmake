# SPDX-License-Identifier: Apache-2.0
dl_add_fuzz_target(json DEPS dl_json)
