# SPDX-License-Identifier: Apache-2.0
dl_add_fuzz_target(delta_commit DEPS dl_delta)
dl_add_fuzz_target(delta_checkpoint DEPS dl_delta)
