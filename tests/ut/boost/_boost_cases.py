"""AutoBoost's cases (level, boost config dict), written once for tests/ut/boost/test_boost.py and
tools/make_nn_boost_reference.py."""

CASES = {
    "O0": ("O0", ""),
    "O1": ("O1", ""),
    "O2": ("O2", ""),
    "bad_level": ("O9", ""),
    "manual": (
        "O1",
        {
            "boost": {"mode": "manual", "less_bn": False, "grad_accumulation": True},
            "grad_accumulation": {"grad_accumulation_step": 4},
            "common": {"gradient_split_groups": [2, 4], "device_number": 2},
            "grad_freeze": {"freeze_p": 0.1},
        },
    ),
    "enable_all": (
        "O0",
        {
            "boost": {"mode": "enable_all"},
            "grad_freeze": {"param_groups": 3, "freeze_type": 0},
            "less_bn": {"fn_flag": False, "gc_flag": False},
            "dim_reduce": {"rho": 0.5, "n_components": 4, "timeout": 5},
        },
    ),
    "disable_all": ("O2", {"boost": {"mode": "disable_all"}, "grad_freeze": {"param_groups": 3}}),
    "auto": ("O1", {"boost": {"mode": "auto"}, "grad_freeze": {"total_steps": 100}, "adasum": {"x": 1}}),
}
