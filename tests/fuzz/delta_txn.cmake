# SPDX-License-Identifier: Apache-2.0
dl_add_fuzz_target(delta_txn DEPS dl_delta)
