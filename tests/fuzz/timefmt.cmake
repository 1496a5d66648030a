dl_add_fuzz_target(timefmt DEPS dl_base)
